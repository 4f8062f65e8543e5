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
import type { FastifyInstance } from 'fastify';
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
  // Callback-style, and the route's config read only for a POST: a GET, and the status poll, pass without a promise.
  // A refusal is sent without calling `done`, which ends the request there.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'POST' || request.is404) return done();
    const csrf = request.routeOptions.config.csrf;
    if (csrf === 'exempt') return done();
    const header = request.headers['x-csrf-token'];
    if (csrf === 'handler') {
      if (!sessionIdOf(request) || !header) return void reply.code(403).send(csrfRefusal);
      return done();
    }
    csrfSession(store, request, header).then((session) => {
      if (!session) return void reply.code(403).send(csrfRefusal);
      // The handlers need the session too: one read serves both.
      request.session = session;
      done();
    }, done);
  });
}
