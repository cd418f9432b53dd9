/** The Streamable HTTP profile: the network under the scheduler (its checks are the model's `http` rule). */
export { HttpNetwork, MCP_URL, describeHttpDelivery, type HttpDelivery, type HttpHost, type OpenExchange } from './HttpNetwork.ts';
export type { ExchangeState } from './HttpExchange.ts';
export { DEFAULT_HTTP_MODE, resolveHttpMode, type ResolvedHttpMode } from './resolveHttpMode.ts';
export { SimEventStore } from './simEventStore.ts';
