import type { TraceRecorder } from '../../sim/trace.ts';
import type { JsonValue } from '../../util/json.ts';
import type { Inbox } from '../../real/Inbox.ts';
import { BadTargetError, type Endpoint, type TargetConnection } from '../../real/connection.ts';
import { commandLabel, startProcess, type CommandSpec, type ProcessTargetOptions } from '../../real/startProcess.ts';
import { BoundedLines } from '../../real/boundedFrames.ts';
import { FrameBudget } from '../../real/FrameBudget.ts';
import { DEFAULT_WIRE_BOUNDS } from '../../real/wireBounds.ts';
import { isJsonRpcLine, Refusal, stdoutRefusal } from '../../real/stdoutRefusal.ts';

/** A stdio server: one process per connection, newline-delimited JSON-RPC on stdin/stdout. */
export function stdioEndpoint(spec: CommandSpec, options: ProcessTargetOptions = {}): Endpoint {
  // The first stdout line of any connection that is not JSON-RPC stops the campaign (exit 2).
  const refusal = new Refusal();
  return {
    kind: 'process',
    refusal,
    label: commandLabel(spec),
    visibility: {
      sees: ['every frame on stdin and stdout, with its real time', 'stderr', 'the exit code and signal after stdin EOF'],
      cannotSee: [
        'when the server read a frame (only when it was written to the pipe)',
        'whether a handler started, saw the cancel or stopped its work (only what it wrote afterwards)',
        'timers, tasks and threads inside the server',
        'what the server\'s SDK dropped or added on its own (its policy shows only as frames)',
      ],
    },
    async open(recorder: TraceRecorder, inbox: Inbox): Promise<TargetConnection> {
      const started = await startProcess(spec, recorder, inbox, options);
      const { child } = started;
      let clientSeq = 0;
      let serverSeq = 0;
      // Lines past the bound are not buffered, floods are counted (src/real/wireBounds.ts).
      const budget = new FrameBudget(options.wire ?? DEFAULT_WIRE_BOUNDS, recorder, 'client', 0, undefined, (token) => inbox.flooded(token));
      const lines = new BoundedLines((options.wire ?? DEFAULT_WIRE_BOUNDS).maxFrameBytes, recorder, (line) => {
        if (line.trim() === '' || budget.countsLine(line)) return;
        let frame: JsonValue;
        let parsed = true;
        try {
          frame = JSON.parse(line) as JsonValue;
        } catch {
          frame = line;
          parsed = false;
        }
        if (!isJsonRpcLine(frame, parsed)) {
          // Recorded and read (the handshake words a program that never answers apart), then refused.
          frame = line;
          refusal.refuse(stdoutRefusal(line));
        } else if (!budget.admit(frame)) return;
        recorder.record({ kind: 'deliver', to: 'client', conn: 0, seq: serverSeq++, frame, burst: 1 });
        inbox.push(frame);
      });
      child.stdout!.on('data', (chunk: Buffer) => lines.push(chunk));
      child.stdout!.on('end', () => recorder.record({ kind: 'eof', to: 'client', conn: 0 }));
      return {
        send(frame) {
          if (started.exited || child.stdin!.writableEnded) {
            recorder.record({ kind: 'send-failed', from: 'client', conn: 0, frame, error: 'the process has exited' });
            return Promise.resolve();
          }
          recorder.record({ kind: 'send', from: 'client', conn: 0, seq: clientSeq++, frame });
          child.stdin!.write(`${JSON.stringify(frame)}\n`);
          return Promise.resolve();
        },
        sendRaw(text) {
          if (started.exited || child.stdin!.writableEnded) return;
          recorder.record({ kind: 'send', from: 'client', conn: 0, seq: clientSeq++, frame: text });
          child.stdin!.write(`${text}\n`);
        },
        drop: () => false,
        openExchanges: () => 0,
        close: () => started.stop(),
        get exited() {
          return started.exited;
        },
        startedProcess: true,
      };
    },
  };
}
