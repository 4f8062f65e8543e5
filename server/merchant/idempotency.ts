/**
 * Idempotency-Key, as Stripe does it: a POST's answer is kept under (API key, Idempotency-Key) with the
 * request's fingerprint. The same key and request again answers the kept answer; the same key with another request is
 * refused (422). The key's row is written in the SAME transaction as the work it answers, so two requests with one key
 * at once make one bill: on SQLite the second transaction starts after the first committed and finds its row; on
 * PostgreSQL the second conflicts on the key (serialization failure or the primary key), is retried by the store and
 * then finds it. Only successful answers are kept: a refusal (a 409, bad fields) writes nothing, so the same key may
 * be tried again once the cause is gone. Keys are kept 24 h (the worker's loop sweeps older ones).
 */
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { changedRows } from '../store/database';
import type { Store } from '../store/store';
import { ApiError } from './errors';
import type { IdempotencyRow } from './tables';

/** Idempotency keys are kept this long, then swept: at least 24 h. */
export const IDEMPOTENCY_KEEP_MS = 24 * 60 * 60_000;

/** JSON with object keys sorted, so the same body sent with its keys in another order is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What makes two requests the same: method, path and body. */
export const fingerprint = (method: string, url: string, body: unknown): string =>
  crypto.createHash('sha256').update(`${method} ${url.split('?')[0]}\n${canonical(body)}`).digest('hex');

export interface IdempotentRequest {
  keyId: string;
  idempotencyKey: string;
  fingerprint: string;
  /** The status of a successful answer. */
  statusCode: number;
}

export async function idempotent<T>(
  store: Store,
  request: IdempotentRequest,
  work: (tx: Store) => Promise<T>,
): Promise<{ statusCode: number; body: T; replayed: boolean }> {
  return store.transaction(async (tx) => {
    const kept = await tx.db.selectFrom('idempotency_keys').selectAll().where('key_id', '=', request.keyId).where('idempotency_key', '=', request.idempotencyKey).executeTakeFirst();
    if (kept) {
      if (kept.fingerprint !== request.fingerprint) {
        throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was used with another request: use a new key for a new request');
      }
      return { statusCode: kept.status_code, body: JSON.parse(kept.body) as T, replayed: true };
    }
    const body = await work(tx);
    const answer: Omit<IdempotencyRow, 'created_at'> = {
      key_id: request.keyId,
      idempotency_key: request.idempotencyKey,
      fingerprint: request.fingerprint,
      status_code: request.statusCode,
      body: JSON.stringify(body),
    };
    await tx.db.insertInto('idempotency_keys').values({ ...answer, created_at: tx.now() }).execute();
    return { statusCode: request.statusCode, body, replayed: false };
  });
}

/** Forgets the answers kept longer than IDEMPOTENCY_KEEP_MS; answers how many. */
export const sweepIdempotencyKeys = async (store: Store): Promise<number> =>
  changedRows(await store.db.deleteFrom('idempotency_keys').where('created_at', '<', store.now() - IDEMPOTENCY_KEEP_MS).executeTakeFirstOrThrow());

/** Runs a merchant API POST under its Idempotency-Key and sends the answer; a replay sends the first answer again. */
export async function answerOnce<T>(store: Store, request: FastifyRequest, reply: FastifyReply, statusCode: number, work: (tx: Store) => Promise<T>) {
  const key = request.headers['idempotency-key'] as string;
  const print = fingerprint(request.method, request.url, request.body);
  // The work is part of the request: the events it queues name it.
  const answer = await idempotent<T>(store.forRequest(request.id), { keyId: request.merchantKeyId!, idempotencyKey: key, fingerprint: print, statusCode }, work);
  if (answer.replayed) void reply.header('idempotent-replayed', 'true');
  return reply.code(answer.statusCode).send(answer.body);
}
