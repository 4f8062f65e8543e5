/**
 * Request counters for the per-client limits, shared by every process. On PostgreSQL (any number of processes) each
 * hit is one upsert into `rate_limit_hits`, so two processes allow a client what one does; on SQLite (one process)
 * the counting stays in memory. A window opens at a key's first hit and lasts its length, as @fastify/rate-limit's own
 * counting does; @fastify/rate-limit keeps deciding (its per-route limits, headers and 429s) and only counts through
 * the store made here.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'kysely';
import type { Store } from '../store/store';

declare module '../store/database' {
  interface Database {
    rate_limit_hits: RateLimitHitsTable;
  }
}

/** One counting window of one key (`<scope> <client>`): its hits so far and when it ends. */
export interface RateLimitHitsTable {
  key: string;
  hits: number;
  resets_at: number;
}

/** A key's hits in its current window, and the milliseconds left of it (@fastify/rate-limit's `current` and `ttl`). */
export interface Hits {
  current: number;
  ttl: number;
}

/** Counts one hit of `key` in a window of `windowMs`. */
export type HitCounter = (key: string, windowMs: number) => Promise<Hits>;

/**
 * One hit, in one statement: the row of the key is made, counted on, or started again when its window has ended. A
 * single upsert needs no transaction: concurrent hits of one key queue on its row and each reads the count before it.
 */
export async function countHit(store: Store, key: string, windowMs: number): Promise<Hits> {
  const t = store.now();
  const ended = sql<boolean>`rate_limit_hits.resets_at <= ${t}`;
  const row = await store.db
    .insertInto('rate_limit_hits')
    .values({ key, hits: 1, resets_at: t + windowMs })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        hits: sql<number>`case when ${ended} then 1 else rate_limit_hits.hits + 1 end`,
        resets_at: sql<number>`case when ${ended} then ${t + windowMs} else rate_limit_hits.resets_at end`,
      }),
    )
    .returning(['hits', 'resets_at'])
    .executeTakeFirstOrThrow();
  return { current: row.hits, ttl: Math.max(0, row.resets_at - t) };
}

/** Forgets the windows that have ended (a later hit starts its key again at 1). */
export async function forgetEndedWindows(store: Store): Promise<void> {
  await store.db.deleteFrom('rate_limit_hits').where('resets_at', '<=', store.now()).execute();
}

/** Counting in this process only, for a small set of keys (the merchant API's keys): nothing else shares it. */
function memoryCounter(now: () => number): HitCounter {
  const windows = new Map<string, { hits: number; resetsAt: number }>();
  return async (key, windowMs) => {
    const t = now();
    let window = windows.get(key);
    if (!window || window.resetsAt <= t) windows.set(key, (window = { hits: 0, resetsAt: t + windowMs }));
    window.hits += 1;
    return { current: window.hits, ttl: window.resetsAt - t };
  };
}

/** Whether the limits are counted in the database: where several processes may serve one database. */
export const sharesLimits = (store: Store) => store.engine === 'postgres';

/** The counter of a store's limits: the database's on PostgreSQL, this process's memory on SQLite. */
export const hitCounter = (store: Store): HitCounter => (sharesLimits(store) ? (key, windowMs) => countHit(store, key, windowMs) : memoryCounter(store.now));

/** The scope of a route's own limit: its method and URL pattern (@fastify/rate-limit hands the route as `routeInfo`). */
function routeScope(routeOptions: unknown): string {
  const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
  return `${String(route?.method ?? '')} ${String(route?.url ?? '')}`;
}

/** A store of @fastify/rate-limit that counts through `count`: `all` for the global limit, a route's own scope for its. */
class CountingStore implements FastifyRateLimitStore {
  constructor(
    private readonly count: HitCounter,
    private readonly scope: string,
    private readonly log: (message: string, error: unknown) => void,
  ) {}

  incr(key: string, callback: (error: Error | null, result?: Hits) => void, timeWindow: number): void {
    this.count(`${this.scope} ${key}`, timeWindow).then(
      (hits) => callback(null, hits),
      (error: Error) => {
        this.log('a rate-limit hit could not be counted', error);
        callback(error);
      },
    );
  }

  child(routeOptions: unknown): FastifyRateLimitStore {
    return new CountingStore(this.count, routeScope(routeOptions), this.log);
  }
}

/**
 * The store @fastify/rate-limit is given on PostgreSQL (undefined on SQLite: its own memory store, as before). A hit
 * that cannot be counted (the database unreachable) lets the request through: the request fails on its own database
 * work if it needs any, and the limits are a brake on floods, not what guards money (that is in transactions).
 */
export function rateLimitStore(store: Store, log: (message: string, error: unknown) => void): FastifyRateLimitStoreCtor | undefined {
  if (!sharesLimits(store)) return undefined;
  const count: HitCounter = (key, windowMs) => countHit(store, key, windowMs);
  return class GlobalScope extends CountingStore {
    constructor() {
      super(count, 'all', log);
    }
  };
}
