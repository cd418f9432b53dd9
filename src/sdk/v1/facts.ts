import type { SdkFacts } from '../facts.ts';

/** The facts of the 1.x line (`Protocol` in `shared/protocol.js`), checked against 1.32.2. */
export const v1Facts: SdkFacts = {
  defaultRequestTimeoutMs: 60_000,
  requestTimeoutCode: -32001,
  errorText: {
    requestTimeout: /Request timed out/,
    maxTotalTimeout: /Maximum total timeout/,
    connectionGone: /Not connected|Connection closed/,
  },
  timerLabels: { requestTimeout: 'timeoutHandler' },
  correlationMaps: {
    responseHandlers: '_responseHandlers',
    progressHandlers: '_progressHandlers',
    timeouts: '_timeoutInfo',
    handlerAbortControllers: '_requestHandlerAbortControllers',
    requestResolvers: '_requestResolvers',
    taskProgressTokens: '_taskProgressTokens',
  },
  httpServerTransportMaps: {
    requestToStream: '_requestToStreamMapping',
    requestResponses: '_requestResponseMap',
    streams: '_streamMapping',
  },
};
