import type { HttpHandle } from './runHttpRogue.ts';

/**
 * Deliberately broken servers for the fixtures of `http.rejects-bad-input` and
 * `rpc.survives-bad-input`: wrappers around the real `handleRequest` that misbehave on a POST
 * whose body is not JSON, and pass everything else through (so the handshake still works).
 */
const unparseable = async (request: Request): Promise<boolean> => {
  if (request.method !== 'POST') return false;
  try {
    JSON.parse(await request.clone().text());
    return false;
  } catch {
    return true;
  }
};

/** Answers a body that is not JSON with a bodiless 200. */
export const answersGarbageWith200 = (handle: HttpHandle): HttpHandle => async (request) =>
  (await unparseable(request)) ? new Response(null, { status: 200 }) : handle(request);

/** Never answers a body that is not JSON: the Response promise stays pending. */
export const neverAnswersGarbage = (handle: HttpHandle): HttpHandle => async (request) =>
  (await unparseable(request)) ? new Promise<Response>(() => {}) : handle(request);

/** Answers a body that is not JSON with a 500. */
export const answersGarbageWith500 = (handle: HttpHandle): HttpHandle => async (request) =>
  (await unparseable(request)) ? new Response('boom', { status: 500 }) : handle(request);

/** Refuses a body that is not JSON with a 400, then loses the session: every later request gets 404. */
export const losesSessionOnGarbage = (handle: HttpHandle): HttpHandle => {
  let lost = false;
  return async (request) => {
    if (lost) return new Response(null, { status: 404 });
    if (!(await unparseable(request))) return handle(request);
    lost = true;
    return new Response(null, { status: 400 });
  };
};
