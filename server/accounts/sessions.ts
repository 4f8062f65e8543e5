/**
 * The payer's session: a cookie naming a row that holds the CSRF token and the signed-in account. Every process reads
 * it from the database on every request, so a session ended or renamed by one is refused by all.
 */
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieOf, setCookie } from '../platform/cookies';
import type { Store } from '../store/store';
import { deleteSession, insertSession, renameSession, sessionById, setSessionAccount, sweepSessions, touchSession } from './sessionQueries';
import type { SessionRow } from './tables';

export const SESSION_COOKIE = 'sid';

/**
 * How long a session lives: it ends after 30 minutes without a request or 24 hours after it began,
 * whichever comes first; an ended session is refused at once and its row deleted (on use, and by the sweep).
 */
export const SESSION_LIFE = {
  idleMs: 30 * 60_000,
  absoluteMs: 24 * 60 * 60_000,
  /** The last-seen time is written at most this often: the status poll comes every 5 s. */
  touchEveryMs: 60_000,
  /** How often ended sessions are deleted. */
  sweepEveryMs: 5 * 60_000,
} as const;

const randomToken = () => crypto.randomBytes(32).toString('base64url');

/** What deciding whether a session still lives needs: its two times. */
type SessionTimes = Pick<SessionRow, 'created_at' | 'seen_at'>;

const isLive = (times: SessionTimes, t: number) => t - times.seen_at < SESSION_LIFE.idleMs && t - times.created_at < SESSION_LIFE.absoluteMs;

/** The session id the request's cookie names, if any. */
export const sessionIdOf = (request: FastifyRequest): string | undefined => cookieOf(request, SESSION_COOKIE) || undefined;

/**
 * Whether a session read from the database (here, or together with other data by the status poll) still lives. An
 * ended one is deleted; a live one has its last-seen time brought up to date, at most once a minute. Every process
 * reads the session from the database on every request, so a session ended or renamed by one is refused by all.
 */
export async function keepAlive(store: Store, id: string, times: SessionTimes): Promise<boolean> {
  const t = store.now();
  if (!isLive(times, t)) {
    await deleteSession(store, id);
    return false;
  }
  if (t - times.seen_at >= SESSION_LIFE.touchEveryMs) await touchSession(store, id);
  return true;
}

/** The live session named by the request's cookie, if any. */
export async function findSession(store: Store, request: FastifyRequest): Promise<SessionRow | undefined> {
  const id = sessionIdOf(request);
  const session = id ? await sessionById(store, id) : undefined;
  return session && (await keepAlive(store, session.id, session)) ? session : undefined;
}

const setSessionCookie = (reply: FastifyReply, id: string, secure: boolean) =>
  setCookie(reply, SESSION_COOKIE, id, { path: '/', httpOnly: true, sameSite: 'lax', secure });

/** Finds the request's session or starts a new one, setting its cookie (HttpOnly, SameSite=Lax, Secure under https). */
export async function ensureSession(store: Store, request: FastifyRequest, reply: FastifyReply, secure: boolean): Promise<SessionRow> {
  const existing = await findSession(store, request);
  if (existing) return existing;
  const id = randomToken();
  await insertSession(store, id, randomToken());
  setSessionCookie(reply, id, secure);
  return (await sessionById(store, id))!;
}

/**
 * Constant-time comparison of the CSRF header with a session's token (no token or no header: no match). Compared
 * character by character without an early exit, so the time taken says nothing of where they differ; a length differs
 * at once (a token's length is no secret). No buffer is made: the status poll compares on every request.
 */
export function tokenMatches(token: string | null | undefined, header: unknown): boolean {
  if (!token || typeof header !== 'string' || header.length !== token.length) return false;
  let difference = 0;
  for (let index = 0; index < token.length; index++) difference |= token.charCodeAt(index) ^ header.charCodeAt(index);
  return difference === 0;
}

/**
 * The live session the request's cookie names, when the request's CSRF header is that session's token; read from the
 * database every time (no process remembers a token: another may have renamed or ended the session).
 */
export async function csrfSession(store: Store, request: FastifyRequest, header: unknown): Promise<SessionRow | undefined> {
  const id = sessionIdOf(request);
  if (!id || typeof header !== 'string' || header === '') return undefined;
  const session = await sessionById(store, id);
  if (!session || !tokenMatches(session.csrf_token, header)) return undefined;
  return (await keepAlive(store, id, session)) ? session : undefined;
}

export const csrfRefusal = { success: false, error: 'Неверный CSRF-токен, обновите страницу' } as const;

/** The request's session: the one the CSRF hook read for a POST (it refused every POST without one). */
export async function requireSession(store: Store, request: FastifyRequest): Promise<SessionRow> {
  const session = request.session ?? (await findSession(store, request));
  if (!session) throw Object.assign(new Error('Сессия не найдена, обновите страницу'), { statusCode: 403 });
  return session;
}

/**
 * Signs a session in under a new id, so a session id planted before sign-in is worth nothing after it (session
 * fixation). The CSRF token stays: the open page keeps reading it from its meta tag.
 */
export async function renewSession(store: Store, session: SessionRow, accountId: number | null, reply: FastifyReply, secure: boolean): Promise<void> {
  const id = randomToken();
  await store.transaction(async (tx) => {
    await renameSession(tx, session.id, id);
    await setSessionAccount(tx, id, accountId);
  });
  setSessionCookie(reply, id, secure);
}

/**
 * Logout: the session ends with everything bound to it (the user, phones proven by a code, free-call locks) and a
 * new one takes its place under a new id. It keeps the CSRF token, because the open page goes on without a reload.
 */
export async function replaceSession(store: Store, session: SessionRow, reply: FastifyReply, secure: boolean): Promise<void> {
  const id = randomToken();
  await store.transaction(async (tx) => {
    await deleteSession(tx, session.id);
    await insertSession(tx, id, session.csrf_token);
  });
  setSessionCookie(reply, id, secure);
}

/** Deletes every ended session (accounts/module.ts runs this every SESSION_LIFE.sweepEveryMs); answers how many. */
export async function sweepEndedSessions(store: Store): Promise<number> {
  const t = store.now();
  return sweepSessions(store, t - SESSION_LIFE.idleMs, t - SESSION_LIFE.absoluteMs);
}
