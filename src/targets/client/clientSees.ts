import type { Visibility } from '../Target.ts';

/**
 * What a run of an SDK's client can show, and what it cannot: the report prints both. mcp-sim is
 * the server there (its scripted server is the harness, whose conduct is never judged), so the
 * ids about a server's conduct are not judged, and those about a client's are
 * (`JUDGED_ON_A_REAL_CLOCK.client`).
 */
export const CLIENT_SEES: Visibility = {
  sees: [
    "the client's frames as the scripted server read them, and the server's own, with their times",
    "the client's side channel: each call's start, progress and end as the SDK told the caller, the caller's abort and close, the close completing, its handlers of the server's requests (started, told of a cancel, ended)",
    "over stdio the server's input ending (or its signal), over HTTP the session's DELETE",
  ],
  cannotSee: ["the SDK's state inside the client process (its maps of calls, timers and abort listeners)", 'when the client read a frame, but where a callback or an answer proves it (else the in-flight bound after it was written)'],
  notJudged: [
    {
      invariants: ['progress.token-requested', 'progress.after-response', 'progress.increasing', 'progress.total-stable', 'progress.after-cancel', 'progress.reaches-requester', 'cancel.zombie-work', 'lifecycle.stdio-exit', 'liveness.call-settles', 'http.exchange-completes', 'http.accepted-202', 'http.related-on-request-stream', 'http.session-deleted-404', 'http.session-required-400'] as const,
      why: "a server's conduct: mcp-sim is the server here, and its scripted server does what each scenario asks on purpose (answers after a cancel, invents a token)",
    },
    {
      invariants: ['rpc.response-matches-request', 'rpc.single-response', 'rpc.no-reply-to-notification', 'rpc.method-defined', 'lifecycle.init-first'] as const,
      why: "the methods and order of the client's frames are not judged here yet (their JSON-RPC shape, ids and progress tokens are): a client may open with a newer revision's probe (go-sdk v1.8.0 sends server/discover before initialize), which the 2025-11-25 rules of this run would take for a broken handshake",
    },
    { invariants: ['leak.correlation-maps', 'leak.timers', 'leak.abort-listeners'] as const, why: "the client's maps, timers and listeners are inside its process" },
    { invariants: ['harness.deterministic', 'harness.globals-restored', 'harness.offline', 'harness.as-scripted'] as const, why: 'real time: nothing is scheduled or replayed byte for byte; each finding carries its reproduction rate instead' },
  ],
};
