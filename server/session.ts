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

/** Constant-time comparison of the CSRF header with the session's token. */
export function csrfMatches(session: SessionRow | undefined, header: unknown): boolean {
  if (!session || typeof header !== 'string') return false;
  const expected = Buffer.from(session.csrf_token);
  const given = Buffer.from(header);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}
