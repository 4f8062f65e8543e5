/**
 * The CSRF check of every POST of the page: the request must name a live session (its cookie) and carry that
 * session's token (the X-CSRF-Token header the page reads from its meta tag). It runs before the body is read, so a
 * forged POST is refused without touching anything, and it reads the token from the database every time (no process
 * remembers it: another may have renamed or ended the session).
 *
 * A route states the exception next to itself, in its config, with its reason:
 * - `csrf: 'exempt'`: the caller is no browser of ours and proves itself otherwise (the merchant's bearer key, the
 *   acquirer's signed callback, a sandbox party standing for another host) or changes nothing (a CSP report);
 * - `csrf: 'handler'`: the route compares the token itself, in the same database read as its own work (the status
 *   poll); the hook only refuses a request without a session cookie or a token.
 * A URL no route answers changes nothing either: its 404 is answered as it is.
 */
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { Store } from '../store/store';
import { csrfRefusal, csrfSession, sessionIdOf } from './sessions';
import type { SessionRow } from './tables';

declare module 'fastify' {
  interface FastifyRequest {
    /** The session of a POST, read by the CSRF hook (null on GETs and on routes that check the token themselves). */
    session: SessionRow | null;
  }
  interface FastifyContextConfig {
    csrf?: 'exempt' | 'handler';
  }
}

export function csrfCheck(app: FastifyInstance, store: Store): void {
  app.decorateRequest('session', null);
  // The route's config says which check it needs, so the check is chosen once, when the route is registered, and
  // given to that route alone: a GET, an exempt route and a URL no route answers run no CSRF hook at all, and no
  // request reads its route's options (which Fastify builds anew at each read). It goes first among the route's own
  // hooks, as a hook of the whole app would run before them (a refused request is not counted by the route's limit).
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    const csrf = route.config?.csrf;
    if (!methods.includes('POST') || csrf === 'exempt') return;
    const check = csrf === 'handler' ? credentialsCame : sessionWithToken(store);
    const hook: onRequestHookHandler = methods.length === 1 ? check : function postOnly(request, reply, done) {
      return request.method === 'POST' ? check.call(this, request, reply, done) : done();
    };
    // A new array: the route's options may be shared with another route Fastify derives from them.
    route.onRequest = [hook, ...[route.onRequest ?? []].flat()];
  });
}

/**
 * A route that compares the token itself: a session cookie and a token must have come. A refusal is sent without
 * calling `done`, which ends the request there.
 */
const credentialsCame: onRequestHookHandler = (request, reply, done) => {
  if (!sessionIdOf(request) || !request.headers['x-csrf-token']) return void reply.code(403).send(csrfRefusal);
  done();
};

/** Every other POST: the live session of the cookie, whose token the header must carry, read from the database. */
function sessionWithToken(store: Store): onRequestHookHandler {
  return (request, reply, done) => {
    csrfSession(store, request, request.headers['x-csrf-token']).then((session) => {
      if (!session) return void reply.code(403).send(csrfRefusal);
      // The handlers need the session too: one read serves both.
      request.session = session;
      done();
    }, done);
  };
}
