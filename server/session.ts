import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionRow, Store } from './store/store';

export const SESSION_COOKIE = 'sid';

const randomToken = () => crypto.randomBytes(32).toString('base64url');

/** The session id the request's cookie names, if any. */
export const sessionIdOf = (request: FastifyRequest): string | undefined => request.cookies[SESSION_COOKIE] || undefined;

/** The session named by the request's cookie, if the store knows it. */
export async function findSession(store: Store, request: FastifyRequest): Promise<SessionRow | undefined> {
  const id = sessionIdOf(request);
  return id ? store.sessionById(id) : undefined;
}

/** Finds the request's session or starts a new one, setting its cookie (HttpOnly, SameSite=Lax, Secure under https). */
export async function ensureSession(store: Store, request: FastifyRequest, reply: FastifyReply, secure: boolean): Promise<SessionRow> {
  const existing = await findSession(store, request);
  if (existing) return existing;
  const id = randomToken();
  await store.insertSession(id, randomToken());
  reply.setCookie(SESSION_COOKIE, id, { path: '/', httpOnly: true, sameSite: 'lax', secure });
  return (await store.sessionById(id))!;
}

/** Constant-time comparison of the CSRF header with a session's token (no token or no header: no match). */
export function tokenMatches(token: string | null | undefined, header: unknown): boolean {
  if (!token || typeof header !== 'string') return false;
  const expected = Buffer.from(token);
  const given = Buffer.from(header);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

/**
 * The session the request's cookie names, when the request's CSRF header is that session's token; read from the
 * database every time (no process remembers a token: another may have renamed or ended the session).
 */
export async function csrfSession(store: Store, request: FastifyRequest, header: unknown): Promise<SessionRow | undefined> {
  const id = sessionIdOf(request);
  if (!id || typeof header !== 'string' || header === '') return undefined;
  const session = await store.sessionById(id);
  return session && tokenMatches(session.csrf_token, header) ? session : undefined;
}

export const csrfRefusal = { success: false, error: 'Неверный CSRF-токен, обновите страницу' } as const;

/** The request's session: the one the CSRF hook read for a POST (it refused every POST without one). */
export async function requireSession(store: Store, request: FastifyRequest): Promise<SessionRow> {
  const session = request.session ?? (await findSession(store, request));
  if (!session) throw Object.assign(new Error('Сессия не найдена, обновите страницу'), { statusCode: 403 });
  return session;
}

/**
 * Signs a session in or out under a new id, so a session id planted before sign-in is worth nothing after it
 * (session fixation). The CSRF token stays: the open page keeps reading it from its meta tag.
 */
export async function renewSession(store: Store, session: SessionRow, accountId: number | null, reply: FastifyReply, secure: boolean): Promise<void> {
  const id = randomToken();
  await store.transaction(async (tx) => {
    await tx.renameSession(session.id, id);
    await tx.setSessionAccount(id, accountId);
  });
  reply.setCookie(SESSION_COOKIE, id, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}
