import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionKey, SessionRow, Store } from './store/store';

export const SESSION_COOKIE = 'sid';

/**
 * How long a session lives (DESIGN §6): it ends after 30 minutes without a request or 24 hours after it began,
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

const isLive = (key: SessionKey, t: number) => t - key.seen_at < SESSION_LIFE.idleMs && t - key.created_at < SESSION_LIFE.absoluteMs;

/** The key of a live session, its last-seen time brought up to date; an ended session is deleted and is none. */
function liveSessionKey(store: Store, id: string): SessionKey | undefined {
  const t = store.now();
  let key = store.sessionKeyOf(id);
  // The remembered last-seen time may be older than the row's (another server process saw the session since).
  if (key && !isLive(key, t)) key = store.sessionKeyOf(id, true);
  if (!key) return undefined;
  if (!isLive(key, t)) {
    store.deleteSession(id);
    return undefined;
  }
  if (t - key.seen_at >= SESSION_LIFE.touchEveryMs) store.touchSession(id);
  return key;
}

/** The live session named by the request's cookie, if any. */
export function findSession(store: Store, request: FastifyRequest): SessionRow | undefined {
  const id = request.cookies[SESSION_COOKIE];
  return id && liveSessionKey(store, id) ? store.sessionById(id) : undefined;
}

const setSessionCookie = (reply: FastifyReply, id: string, secure: boolean) =>
  reply.setCookie(SESSION_COOKIE, id, { path: '/', httpOnly: true, sameSite: 'lax', secure });

/** Finds the request's session or starts a new one, setting its cookie (HttpOnly, SameSite=Lax, Secure under https). */
export function ensureSession(store: Store, request: FastifyRequest, reply: FastifyReply, secure: boolean): SessionRow {
  const existing = findSession(store, request);
  if (existing) return existing;
  const id = randomToken();
  store.insertSession(id, randomToken());
  setSessionCookie(reply, id, secure);
  return store.sessionById(id)!;
}

/** Constant-time comparison of the CSRF header with the token of the request's live session (none: no match). */
export function csrfMatches(store: Store, request: FastifyRequest, header: unknown): boolean {
  const id = request.cookies[SESSION_COOKIE];
  const token = id ? liveSessionKey(store, id)?.csrf_token : undefined;
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
 * Signs a session in under a new id, so a session id planted before sign-in is worth nothing after it (session
 * fixation). The CSRF token stays: the open page keeps reading it from its meta tag.
 */
export function renewSession(store: Store, session: SessionRow, accountId: number | null, reply: FastifyReply, secure: boolean): void {
  const id = randomToken();
  store.transaction(() => {
    store.renameSession(session.id, id);
    store.setSessionAccount(id, accountId);
  });
  setSessionCookie(reply, id, secure);
}

/**
 * Logout: the session ends with everything bound to it (the user, phones proven by a code, free-call locks) and a
 * new one takes its place under a new id. It keeps the CSRF token, because the open page goes on without a reload.
 */
export function replaceSession(store: Store, session: SessionRow, reply: FastifyReply, secure: boolean): void {
  const id = randomToken();
  store.transaction(() => {
    store.deleteSession(session.id);
    store.insertSession(id, session.csrf_token);
  });
  setSessionCookie(reply, id, secure);
}

/** Deletes every ended session (the timer in app.ts runs this every SESSION_LIFE.sweepEveryMs); answers how many. */
export function sweepEndedSessions(store: Store): number {
  const t = store.now();
  return store.sweepSessions(t - SESSION_LIFE.idleMs, t - SESSION_LIFE.absoluteMs);
}
