/**
 * The desk's sessions, apart from the payers': their own cookie (`desk_sid`, path /desk, HttpOnly, SameSite=Strict,
 * Secure under https), their own rows and CSRF tokens. A session exists before sign-in, so that the sign-in form posts
 * with a token too; signing in or out puts a new session in its place (a session id planted before is worth nothing
 * after). A session ends after the idle time without a request, or 12 hours after it began, whichever comes first;
 * every process reads it from the database on every request, so one ended anywhere is refused everywhere.
 */
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieOf, setCookie } from '../platform/cookies';
import type { Store } from '../store/store';
import { deleteDeskSession, insertDeskSession, sessionWithStaff, sweepDeskSessions, touchDeskSession, type SessionWithStaff } from './staffQueries';

export const DESK_COOKIE = 'desk_sid';
export const DESK_PATH = '/desk';

export const DESK_SESSION_LIFE = {
  absoluteMs: 12 * 60 * 60_000,
  /** The last-seen time is written at most this often. */
  touchEveryMs: 60_000,
  sweepEveryMs: 5 * 60_000,
} as const;

const randomToken = () => crypto.randomBytes(32).toString('base64url');

export interface DeskSessionOptions {
  idleMs: number;
  secure: boolean;
}

/** What the cookie found: a live session (signed in or not), one that has just ended, or none. */
export type FoundSession = { kind: 'live'; session: SessionWithStaff } | { kind: 'ended' } | { kind: 'none' };

/** The live session the request's cookie names; an ended one is deleted (and said to have ended). */
export async function findDeskSession(store: Store, request: FastifyRequest, options: DeskSessionOptions): Promise<FoundSession> {
  const id = cookieOf(request, DESK_COOKIE);
  if (!id) return { kind: 'none' };
  const session = await sessionWithStaff(store, id);
  if (!session) return { kind: 'none' };
  const t = store.now();
  const switchedOff = session.staff_id !== null && (session.email === undefined || session.email === null || session.disabled_at !== null);
  if (t - session.seen_at >= options.idleMs || t - session.created_at >= DESK_SESSION_LIFE.absoluteMs || switchedOff) {
    await deleteDeskSession(store, id);
    return session.staff_id === null ? { kind: 'none' } : { kind: 'ended' };
  }
  if (t - session.seen_at >= DESK_SESSION_LIFE.touchEveryMs) await touchDeskSession(store, id);
  return { kind: 'live', session };
}

const setDeskCookie = (reply: FastifyReply, id: string, secure: boolean) => setCookie(reply, DESK_COOKIE, id, { path: DESK_PATH, httpOnly: true, sameSite: 'strict', secure });

/** A new session in place of the request's (none, or one that ends now): signed in as `staffId`, or not yet. */
export async function startDeskSession(store: Store, reply: FastifyReply, replaced: string | null, staffId: number | null, secure: boolean): Promise<SessionWithStaff> {
  const id = randomToken();
  await store.transaction(async (tx) => {
    if (replaced) await deleteDeskSession(tx, replaced);
    await insertDeskSession(tx, id, staffId, randomToken());
  });
  setDeskCookie(reply, id, secure);
  return (await sessionWithStaff(store, id))!;
}

/** The request's live session, or a new one not signed in (the desk's page and its first call need a CSRF token). */
export async function ensureDeskSession(store: Store, request: FastifyRequest, reply: FastifyReply, options: DeskSessionOptions): Promise<{ session: SessionWithStaff; ended: boolean }> {
  const found = await findDeskSession(store, request, options);
  if (found.kind === 'live') return { session: found.session, ended: false };
  return { session: await startDeskSession(store, reply, null, null, options.secure), ended: found.kind === 'ended' };
}

/** Constant-time comparison of the CSRF header with the session's token. */
export function csrfMatches(session: SessionWithStaff, header: unknown): boolean {
  if (typeof header !== 'string' || header === '') return false;
  const expected = Buffer.from(session.csrf_token);
  const given = Buffer.from(header);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

/** Deletes every ended desk session; answers how many. */
export function sweepEndedDeskSessions(store: Store, idleMs: number): Promise<number> {
  const t = store.now();
  return sweepDeskSessions(store, t - idleMs, t - DESK_SESSION_LIFE.absoluteMs);
}
