import type { Scenario } from '../../src/sim/scenario.ts';
import { call, close, handler, sleep } from './fixtures.ts';

/**
 * Campaign cases of the "findings must earn their place" work, shrunk with the oracle as it was
 * before (fast-check, then the 1-minimal pass): the very cases whose findings were wrongly blamed
 * or counted.
 */

/**
 * `check --runs 3000 --seed 7`, case 1926, shrunk while `cancel.race-graceful` fired (tape
 * `seed7Case1926Tape`): on a stateless Streamable HTTP server (GET answered 405), c1 times out,
 * its response crosses the cancel, and the server's own request s2 then fails with "Not
 * connected". It fails so in the natural order too: no stateless server can send it.
 */
export const seed7Case1926 = (stateful = false): Scenario => ({
  profile: 'http',
  http: { stateful, response: 'json', eventStore: false },
  handlers: { h1: handler(), h2: handler() },
  actions: [call('c1', 'h1'), call('s2', 'h2', {}, 'sampling/createMessage')],
});
export const seed7Case1926Tape: readonly number[] = [0, 0, 0, 0, 3, 3];

/**
 * `check --runs 20000 --seed 99`, case 14622, shrunk while `lifecycle.close-settles` fired
 * (natural order): two per-POST servers of a stateless HTTP session both send
 * sampling/createMessage with id 0 to one client (`rpc.request-id-unique`), the second's abort
 * controller overwrites the first's, and the client's close aborts only one of the two handlers.
 */
export const seed99Case14622: Scenario = {
  profile: 'http',
  http: { stateful: false, response: 'sse', eventStore: false },
  handlers: {
    h1: handler([sleep(10)]),
    h2: handler([{ kind: 'call', method: 'sampling/createMessage' }]),
    h3: handler([{ kind: 'call', method: 'sampling/createMessage' }]),
  },
  actions: [call('s1', 'h1', {}, 'sampling/createMessage'), call('c2', 'h2'), call('c3', 'h3'), close('client')],
};
