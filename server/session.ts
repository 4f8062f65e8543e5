import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionRow, Store } from './store/store';

export const SESSION_COOKIE = 'sid';

const randomToken = () => crypto.randomBytes(32).toString('base64url');

/** The session named by the request's cookie, if the store knows it. */
export function findSession(store: Store, request: FastifyRequest): SessionRow | undefined {
  const id = request.cookies[SESSION_COOKIE];
  return id ? store.sessionById(id) : undefined;
}

/** Finds the request's session or starts a new one, setting its cookie (HttpOnly, SameSite=Lax, Secure under https). */
export function ensureSession(store: Store, request: FastifyRequest, reply: FastifyReply, secure: boolean): SessionRow {
  const existing = findSession(store, request);
  if (existing) return existing;
  const id = randomToken();
  store.insertSession(id, randomToken());
  reply.setCookie(SESSION_COOKIE, id, { path: '/', httpOnly: true, sameSite: 'lax', secure });
  return store.sessionById(id)!;
}

/** Constant-time comparison of the CSRF header with the token of the request's session (none: no match). */
export function csrfMatches(store: Store, request: FastifyRequest, header: unknown): boolean {
  const id = request.cookies[SESSION_COOKIE];
  const token = id ? store.csrfTokenOf(id) : undefined;
  if (token === undefined || typeof header !== 'string') return false;
  const expected = Buffer.from(token);
  const given = Buffer.from(header);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

/** The request's session; the CSRF hook has already refused every POST without one. */
export function requireSession(store: Store, request: FastifyRequest): SessionRow {
  const session = findSession(store, request);
  if (!session) throw Object.assign(new Error('Сессия не найдена, обновите страницу'), { statusCode: 403 });
  return session;
}

/**
 * Signs a session in or out under a new id, so a session id planted before sign-in is worth nothing after it
 * (session fixation). The CSRF token stays: the open page keeps reading it from its meta tag.
 */
export function renewSession(store: Store, session: SessionRow, accountId: number | null, reply: FastifyReply, secure: boolean): void {
  const id = randomToken();
  store.transaction(() => {
    store.renameSession(session.id, id);
    store.setSessionAccount(id, accountId);
  });
  reply.setCookie(SESSION_COOKIE, id, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}
