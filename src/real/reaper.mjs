// The reaper of mcp-sim's server processes: a tiny plain-JavaScript watchdog, started once per
// mcp-sim process, detached in its own process group. mcp-sim tells it on its stdin which
// process groups it owns ("+<pgid>" when a server starts, "-<pgid>" when it has been reaped).
// When that pipe ends (mcp-sim exited normally, threw, was interrupted, or was killed with
// SIGKILL: the kernel closes the pipe in every case), the reaper sends SIGTERM to every group it
// still holds, waits the grace period, sends SIGKILL, and exits. No prctl, no polling: the end of
// a pipe is the one parent-death signal every POSIX kernel gives.
import { createInterface } from 'node:readline';

const graceMs = Number(process.argv[2] ?? 500);
const groups = new Set();
const signal = (pgid, name) => {
  try {
    process.kill(-pgid, name);
    return true;
  } catch {
    return false;
  }
};
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const pgid = Number(line.slice(1));
  if (!Number.isInteger(pgid) || pgid <= 1) return;
  if (line[0] === '+') groups.add(pgid);
  else if (line[0] === '-') groups.delete(pgid);
});
lines.on('close', () => {
  const alive = [...groups].filter((pgid) => signal(pgid, 'SIGTERM'));
  if (alive.length === 0) process.exit(0);
  setTimeout(() => {
    for (const pgid of alive) signal(pgid, 'SIGKILL');
    process.exit(0);
  }, graceMs);
});
