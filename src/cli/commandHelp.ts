/**
 * What `--help` prints beyond the flags, and the names the command modules share, kept apart
 * from the commands themselves: `main` registers every command with these and imports a
 * command's own module (the campaign, the SDK, the report writers) only when it runs.
 */

/** `--json -`: the JSON report goes to stdout, and nothing else does. */
export const JSON_TO_STDOUT = '-';

/** The exit statuses of `check`, for its help. */
export const CHECK_EXIT_HELP = `
Exit status: 0 pass, 1 a violation beyond the baseline (with --seeds: in any seed), 2 bad usage or
an error (a worker thread that failed is one, named with the cases it held), 130 stopped by Ctrl-C
(after printing and writing the report of the runs done; a second Ctrl-C quits at once).`;

/** Exit codes of `replay`: 0 no violation, 1 a violation, 2 bad usage or refused, 3 the expected finding did not reproduce. */
export const REPLAY_EXIT = { pass: 0, violation: 1, refused: 2, notReproduced: 3 } as const;

/** The exit codes, as `replay --help` prints them. */
export const REPLAY_EXIT_HELP = `
Exit codes:
  ${REPLAY_EXIT.pass}  the case shows no violation (and the expected finding, if any, reproduced)
  ${REPLAY_EXIT.violation}  the case shows a violation (MUST or DERIVED), or --self-check saw another trace hash
  ${REPLAY_EXIT.refused}  bad usage, an unreadable file or unknown baseline entry, or refused: the case was made with
     other mcp-sim or SDK versions (--made-with, a replay file's "madeWith") or another replay file schemaVersion
  ${REPLAY_EXIT.notReproduced}  NOT reproduced: the invariant the case should show (--expect, a replay file's "invariant",
     a baseline entry's) did not show
`;

/** `bisect --help`: what each exit status means. */
export const BISECT_EXIT_HELP = `
Exit status:
  0  found: the first release that shows the finding (good before bad) or no longer shows it (good after bad: a fix),
     and its minimal case does not reproduce on the release on the other side
  1  nothing to search: the good release already shows the finding, or the bad one does not
  2  bad usage or an error: unknown invariant, a release not in the list, good and bad the same, an end release that cannot be driven
  3  inconclusive: the minimal case reproduces on the release on the other side too (the campaign missed it there: the finding
     does not follow release order for these runs; more --runs, or another --cause), or releases between the two sides
     cannot be driven (stepped over and listed: the change may be in any of them)`;

/** Exit codes of `explore`, as `check`'s: 0 nothing beyond the baseline, 1 a finding that fails, 2 bad usage or an error. */
export const EXPLORE_EXIT = { pass: 0, fail: 1 } as const;

/** The exit codes, as `explore --help` prints them. */
export const EXPLORE_EXIT_HELP = `
Exit status: 0 no finding beyond the baseline (at --fail-on), 1 a finding beyond it, 2 bad usage or an error.`;

/** The exit statuses of `fuzz`, for its help. */
export const FUZZ_EXIT_HELP = `
Exit status: 0 no finding on the server at the --fail-on level, 1 a finding on the server, 2 bad
usage or no server to fuzz (module not found, no factory or server, factory throws, not an MCP
server), 3 a replay whose expected finding did not reproduce.`;
