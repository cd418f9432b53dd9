import type { Visibility } from '../Target.ts';
import type { TargetVisibility } from '../../real/connection.ts';

/**
 * What no black-box server target can judge, and why: said in every report, so that a clean run
 * is never read as more than was looked at. A test bed sees its handlers through its side channel
 * (`handlersSeen`), so the first entry is not its.
 */
export function blackBoxSees(endpoint: TargetVisibility, options: { readonly handlersSeen?: boolean } = {}): Visibility {
  return {
    sees: [...endpoint.sees, ...(options.handlersSeen ? ["the test bed's side channel: each handler's start, steps, observed abort and end"] : [])],
    cannotSee: options.handlersSeen ? endpoint.cannotSee.filter((c) => !c.startsWith('whether a handler')) : endpoint.cannotSee,
    notJudged: [
      ...(options.handlersSeen
        ? []
        : [
            {
              invariants: ['cancel.handler-aborted', 'cancel.zombie-work', 'cancel.abort-swallowed', 'cancel.reaches-work', 'cancel.never-ends', 'liveness.handler-ends'] as const,
              why: "a server's handlers work inside its process: whether one saw its abort and stopped shows only through what the server wrote (progress.after-cancel, cancel.no-response-after); an SDK test bed's side channel shows them (check testbed:<language>)",
            },
          ]),
      { invariants: ['leak.correlation-maps', 'leak.timers', 'leak.abort-listeners'] as const, why: "the server's maps, timers and listeners are inside its process" },
      {
        invariants: ['timeout.settles', 'timeout.sends-cancel', 'timeout.reset-on-progress', 'timeout.max-total', 'timeout.quiet-after-settle', 'progress.delivered', 'progress.token-unique', 'cancel.in-flight-only', 'cancel.not-initialize', 'cancel.late-response-silent', 'cancel.abort-sends-cancel'] as const,
        why: "mcp-sim is the client here, and its own conduct is not under test (check client:<language> judges an SDK's client)",
      },
      { invariants: ['harness.deterministic', 'harness.globals-restored', 'harness.offline', 'harness.as-scripted'] as const, why: 'real time: nothing is scheduled or replayed byte for byte; each finding carries its reproduction rate instead' },
    ],
  };
}
