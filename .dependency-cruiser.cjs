/**
 * The layers of mcp-sim, enforced by dependency-cruiser (`npm run lint:layers`, run by `.ci/run`).
 * Imports point down: cli → campaign, baseline, report, rogue, options → check, workload → model
 * → sim → sdk → util. docs/architecture.md explains each layer; a test proves a wrong import fails.
 */
const upperThanSim = 'model|check|campaign|baseline|report|cli|rogue|workload|options|index\\.ts';

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
      to: { path: '^src/(check|campaign|baseline|report|cli|rogue|workload|options|index\\.ts)' },
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
      from: { path: '^src/(util|sdk|sim|model|workload|check)/' },
      to: { path: '^src/options/', pathNot: '^src/options/defaults\\.ts$' },
    },
    {
      name: 'schema-arbitraries-are-a-leaf',
      severity: 'error',
      comment: 'src/fuzz/schema/ turns JSON Schemas into fast-check arbitraries: pure, it knows nothing of mcp-sim (it may use src/util/).',
      from: { path: '^src/fuzz/schema/' },
      to: { path: '^src/', pathNot: '^src/(fuzz/schema|util)/' },
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
      comment: 'src/fuzz/ (a user\'s server: loading, campaigns, reports) sits above campaigns and checks and under the CLI and the public API; nothing below it imports it (src/fuzz/schema/ aside, a leaf).',
      from: { path: '^src/(util|sdk|sim|model|workload|check|campaign|baseline|report|rogue|options)/' },
      to: { path: '^src/fuzz/', pathNot: '^src/fuzz/schema/' },
    },
    {
      name: 'target-knows-no-verdicts',
      severity: 'error',
      comment: 'src/target/ starts processes and speaks to URLs, recording into the trace; like the simulator it knows nothing of the model, verdicts or anything above it.',
      from: { path: '^src/target/' },
      to: { path: `^src/(${upperThanSim}|realtime|fuzz)`, pathNot: '^src/options/defaults\\.ts$' },
    },
    {
      name: 'realtime-sits-under-the-cli',
      severity: 'error',
      comment: 'src/realtime/ (black-box campaigns against a process or URL) sits beside src/fuzz/, under the CLI and the public API; nothing below imports it.',
      from: { path: '^src/', pathNot: '^src/(realtime|cli)/|^src/index\\.ts$' },
      to: { path: '^src/realtime/' },
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
