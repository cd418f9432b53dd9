import type { HttpHandle } from './runHttpRogue.ts';

/**
 * Deliberately broken servers for the `http.rejects-bad-input` fixtures: wrappers around the real
 * `handleRequest` that misbehave only on a POST whose body is not JSON, and pass everything else
 * through (so the handshake and the follow-up still work).
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
