import { finding } from '../finding.ts';
import type { RuleFactory } from '../rule.ts';

/** A crash on a server's stderr, in the languages the test beds run (Python, Go, Rust, Java, Node). */
const STACK_TRACE = /Traceback \(most recent call last\)|^panic: |goroutine \d+ \[running\]|thread '.*' panicked|Exception in thread|^\s+at .+:\d+:\d+\)?$|Unhandled exception/m;

/**
 * `lifecycle.stdio-exit` (a real clock only: a process target's `exit`): after stdin EOF a stdio
 * server exits by itself within the grace period, with code 0 and no stack trace on stderr; and it
 * does not exit during the run, before stdin closed.
 */
export const stdioExitRule: RuleFactory = (walk) => {
  let stderr = '';
  let eof = false;
  /** A server started for a URL target ends by mcp-sim's SIGTERM after the session's DELETE: not a stdio server. */
  let http = false;
  return {
    trace(e) {
      if (walk.clock.kind !== 'real') return;
      if (e.kind === 'http-request') http = true;
      if (http) return;
      if (e.kind === 'stderr') stderr += e.text;
      if (e.kind === 'eof' && e.to === 'server') eof = true;
      if (e.kind !== 'exit') return;
      const crashed = STACK_TRACE.exec(stderr);
      if (e.after === 'before-eof') {
        walk.flag(finding('lifecycle.stdio-exit', e.i, `the server process exited during the run, before stdin was closed (${e.signal ?? `code ${e.code}`})${crashed ? ', with a stack trace on stderr' : ''}.`, undefined, { side: 'server' }));
        return;
      }
      if (!eof && e.after === 'eof') return;
      const problems: string[] = [];
      if (e.after === 'sigterm' || e.after === 'sigkill') problems.push(`it did not exit within ${walk.clock.graceMs} ms of stdin EOF (ended by ${e.after.toUpperCase()})`);
      else if (e.signal !== null) problems.push(`it died of ${e.signal}`);
      else if (e.code !== 0) problems.push(`it exited with code ${e.code}`);
      if (crashed) problems.push(`its stderr shows a crash: ${JSON.stringify(crashed[0].trim())}`);
      if (problems.length > 0) walk.flag(finding('lifecycle.stdio-exit', e.i, `after stdin closed (the stdio shutdown), the server process misbehaved: ${problems.join('; ')}.`, undefined, { side: 'server' }));
    },
  };
};
