/**
 * The layers of mcp-sim, enforced by dependency-cruiser (`npm run lint:layers`, run by `.ci/run`).
 * Imports point down: cli → matrix, explore, fuzz → campaign, baseline, report, rogue → targets →
 * options → check, workload → model → sim, real → sdk → util. docs/architecture.md explains each
 * layer; a test proves a wrong import fails.
 */
const upperThanSim = 'model|check|campaign|baseline|report|cli|rogue|workload|options|targets|fuzz|explore|matrix|index\\.ts';
/** What a target may not reach: whatever runs, judges, reports or remembers campaigns. */
const aboveTargets = 'campaign|baseline|report|cli|rogue|fuzz|explore|matrix|check|index\\.ts';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'sdk-by-value-outside-adapter',
      severity: 'error',
      comment:
        'Only src/sdk/ may import @modelcontextprotocol/* by value: every SDK release and user server is reached through the adapter loaded at run time. Use `import type`, or ask the SdkAdapter. (test/fuzz/fixtures/ holds user servers for mcp-sim fuzz: they import their SDK as any server does.)',
      from: { pathNot: '^(src/sdk/|test/fuzz/fixtures/)' },
      to: { path: '(^|/)node_modules/@modelcontextprotocol/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'util-is-a-leaf',
      severity: 'error',
      comment: 'src/util/ holds pure helpers that know nothing of the simulator, the model or the SDK.',
      from: { path: '^src/util/' },
      to: { path: '^src/', pathNot: '^src/util/' },
    },
    {
      name: 'sdk-knows-only-util',
      severity: 'error',
      comment: 'The adapter layer sits under the simulator: it may use src/util/ and nothing else of mcp-sim.',
      from: { path: '^src/sdk/' },
      to: { path: '^src/', pathNot: '^src/(sdk|util)/' },
    },
    {
      name: 'sim-knows-no-verdicts',
      severity: 'error',
      comment: 'The simulator (clock, links, transports, world, scheduler, trace) knows nothing of the model, its verdicts or anything above it.',
      from: { path: '^src/sim/' },
      to: { path: `^src/(${upperThanSim})` },
    },
    {
      name: 'model-reads-only-sim-types',
      severity: 'error',
      comment: 'The model judges traces and end states: it may import their types from src/sim/, never run the simulator.',
      from: { path: '^src/model/' },
      to: { path: '^src/sim/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'model-below-the-rest',
      severity: 'error',
      comment: 'The model is imported by checkers, campaigns and reports, never the other way round.',
      from: { path: '^src/model/' },
      to: { path: '^src/(check|campaign|baseline|report|cli|rogue|workload|options|targets|real|fuzz|explore|matrix|index\\.ts)' },
    },
    {
      name: 'workload-and-check-below-campaigns',
      severity: 'error',
      comment: 'Generators and the checked runner serve campaigns, baselines, reports and the CLI; they do not reach up.',
      from: { path: '^src/(workload|check)/' },
      to: { path: '^src/(campaign|baseline|report|cli|rogue|index\\.ts)' },
    },
    {
      name: 'defaults-are-a-leaf',
      severity: 'error',
      comment: 'src/options/defaults.ts holds named constants that every layer may read; it imports nothing of mcp-sim but types.',
      from: { path: '^src/options/defaults\\.ts$' },
      to: { path: '^src/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'below-options-read-only-defaults',
      severity: 'error',
      comment: 'The layers under src/options/ may read its defaults, not its resolvers (which sit above them).',
      from: { path: '^src/(util|sdk|sim|real|model|workload|check)/' },
      to: { path: '^src/options/', pathNot: '^src/options/defaults\\.ts$' },
    },
    {
      name: 'schema-arbitraries-are-a-leaf',
      severity: 'error',
      comment: 'src/workload/jsonSchema/ turns JSON Schemas into fast-check arbitraries: pure, it knows nothing of mcp-sim (it may use src/util/).',
      from: { path: '^src/workload/jsonSchema/' },
      to: { path: '^src/', pathNot: '^src/(workload/jsonSchema|util)/' },
    },
    {
      name: 'matrix-above-campaigns-and-baselines',
      severity: 'error',
      comment: 'src/matrix/ (version matrix, bisect) runs campaigns and baseline builds per release and renders reports: only the CLI and the public API import it.',
      from: { path: '^src/', pathNot: '^src/(matrix|cli)/|^src/index\\.ts$' },
      to: { path: '^src/matrix/' },
    },
    {
      name: 'explore-is-a-campaign-peer',
      comment:
        'src/explore/ (mcp-sim explore, issue #15) sits at the campaign level: it runs checked runs and reuses campaign causes; only the CLI and the report views (types) read it.',
      severity: 'error',
      from: { path: '^src/(sim|sdk|util|model|check|workload|options|campaign|baseline|rogue)/' },
      to: { path: '^src/explore/' },
    },
    {
      name: 'fuzz-sits-under-the-cli',
      severity: 'error',
      comment: 'src/fuzz/ (a module target\'s campaign: its causes, explanations and report) sits above campaigns and targets and under the CLI and the public API; nothing below it imports it.',
      from: { path: '^src/(util|sdk|sim|real|model|workload|check|campaign|baseline|report|rogue|options|targets)/' },
      to: { path: '^src/fuzz/' },
    },
    {
      name: 'real-knows-no-verdicts',
      severity: 'error',
      comment: 'src/real/ is the real clock\'s world (processes, sockets, the reaper, the plan runner): like the simulator it records what happened and knows nothing of the model, targets or anything above them.',
      from: { path: '^src/real/' },
      to: { path: `^src/(${upperThanSim})`, pathNot: '^src/options/defaults\\.ts$' },
    },
    {
      name: 'targets-know-no-campaigns',
      severity: 'error',
      comment: 'A target (src/targets/<kind>/) says what it is, opens, runs and describes cases; it brings no loop, judge, report or replay of its own, so it imports nothing of the campaign or above it.',
      from: { path: '^src/targets/' },
      to: { path: `^src/(${aboveTargets})` },
    },
    {
      name: 'targets-sit-under-the-campaign',
      severity: 'error',
      comment: 'The layers under the targets (the simulator, the real clock, the model, workloads, options) never open a target: the campaign does.',
      from: { path: '^src/(util|sdk|sim|real|model|workload|options|check)/' },
      to: { path: '^src/targets/' },
    },
    {
      name: 'nothing-imports-the-cli',
      severity: 'error',
      comment: 'The CLI parses arguments and calls the programmatic API; nothing else depends on it.',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle makes two modules one; split the shared part out.',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    // Deliberately wrong imports that test/architecture/layers.test.ts cruises on their own.
    exclude: { path: '^test/architecture/fixture/' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
