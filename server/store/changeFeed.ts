/**
 * The change feed: changes the domains publish (a payment attempt's new status, payments/queries.ts), announced to
 * whatever waits for them — in this process and, on PostgreSQL, in every other process on the same database. Polls
 * still read the database (a status is never answered from the feed); the feed only wakes waiters sooner.
 *
 * Delivery is at commit: on PostgreSQL the store calls pg_notify inside the writing transaction, and PostgreSQL
 * delivers it to every LISTENing connection when (and only if) the transaction commits; on SQLite the store hands the
 * change to the in-process emitter after its commit. A listener may miss changes while the listening connection is
 * down; after it reconnects, it hears `{ kind: 'resync' }` and should re-read what it waits for.
 */
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { pgClientConfig } from './engines';
import type { Database } from './database';

/**
 * The changes published, by kind: empty here (the engine knows no domain); each domain adds its own by declaration
 * merging, `declare module '../store/changeFeed' { interface Changes { 'attempt-status': AttemptStatusChange } }`.
 * A change is sent as JSON.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Changes {}

export type Change = Changes[keyof Changes];

/** What a subscriber hears: a change, or word that changes may have been missed (re-read the database). */
export type FeedEvent = Change | { kind: 'resync' };

export type Listener = (event: FeedEvent) => void;

/** The port every consumer sees. */
export interface ChangeFeed {
  /** Starts hearing events; answers the function that stops. Listener errors are logged, never thrown back. */
  subscribe(listener: Listener): () => void;
  /** Resolves once events published by other processes reach this one's subscribers. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The store's side: publish a change from inside the writing transaction. */
export interface ChangePublisher {
  publish(db: Kysely<Database>, change: Change, afterCommit: (effect: () => void | Promise<void>) => void): Promise<void>;
}

/** PostgreSQL NOTIFY channel of this application's changes. */
export const CHANGES_CHANNEL = 'checkout_changes';

type Log = (message: string, error?: unknown) => void;

class Subscribers {
  private readonly listeners = new Set<Listener>();
  constructor(private readonly log: Log) {}
  add(listener: Listener) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  get size() {
    return this.listeners.size;
  }
  dispatch(event: FeedEvent) {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.log('change feed listener failed', error);
      }
    }
  }
}

/** SQLite: the changes of this process, after their commit. (Other processes on the same file learn by polling.) */
export function localFeed(log: Log): ChangeFeed & ChangePublisher {
  const subscribers = new Subscribers(log);
  return {
    publish: async (_db, change, afterCommit) => afterCommit(() => subscribers.dispatch(change)),
    subscribe: (listener) => subscribers.add(listener),
    ready: async () => {},
    close: async () => {},
  };
}

export interface PostgresFeedOptions {
  url: string;
  log: Log;
  /** First reconnect delay; it doubles up to maxBackoffMs. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * PostgreSQL: pg_notify in the writing transaction, and one dedicated LISTEN connection per process (opened on the
 * first subscribe or ready()), reopened with exponential backoff whenever it drops.
 */
export function postgresFeed({ url, log, minBackoffMs = 100, maxBackoffMs = 5_000 }: PostgresFeedOptions): ChangeFeed & ChangePublisher {
  const subscribers = new Subscribers(log);
  let client: pg.Client | null = null;
  let closed = false;
  let connecting: Promise<void> | null = null;
  let everConnected = false;
  let backoff = minBackoffMs;
  let retryTimer: NodeJS.Timeout | null = null;
  let readyWaiters: (() => void)[] = [];

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== CHANGES_CHANNEL || !message.payload) return;
    try {
      subscribers.dispatch(JSON.parse(message.payload) as Change);
    } catch (error) {
      log('change feed: unreadable notification', error);
    }
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    const delay = backoff * (0.5 + Math.random() / 2);
    backoff = Math.min(backoff * 2, maxBackoffMs);
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void listen();
    }, delay);
    retryTimer.unref();
  };

  const lost = (which: pg.Client) => (error?: Error) => {
    if (client !== which) return;
    client = null;
    if (!closed) log('change feed: listening connection lost, reconnecting', error);
    which.removeAllListeners('notification');
    which.end().catch(() => {});
    scheduleReconnect();
  };

  const listen = (): Promise<void> => {
    if (closed || client) return Promise.resolve();
    connecting ??= (async () => {
      const next = new pg.Client(pgClientConfig(url));
      next.on('error', lost(next));
      next.on('end', lost(next));
      next.on('notification', onNotification);
      try {
        client = next;
        await next.connect();
        await next.query(`LISTEN ${CHANGES_CHANNEL}`);
        backoff = minBackoffMs;
        // Whatever was published while nobody listened is unknown: tell the subscribers to re-read.
        if (everConnected) subscribers.dispatch({ kind: 'resync' });
        everConnected = true;
        const waiters = readyWaiters;
        readyWaiters = [];
        for (const resolve of waiters) resolve();
      } catch (error) {
        if (client === next) lost(next)(error as Error);
      } finally {
        connecting = null;
      }
    })();
    return connecting;
  };

  return {
    publish: async (db, change) => {
      await sql`select pg_notify(${CHANGES_CHANNEL}, ${JSON.stringify(change)})`.execute(db);
    },
    subscribe: (listener) => {
      const unsubscribe = subscribers.add(listener);
      void listen();
      return unsubscribe;
    },
    ready: () => {
      if (everConnected && client && !connecting) return Promise.resolve();
      const waiting = new Promise<void>((resolve) => readyWaiters.push(resolve));
      void listen();
      return waiting;
    },
    close: async () => {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const open = client;
      client = null;
      for (const resolve of readyWaiters) resolve();
      readyWaiters = [];
      await open?.end().catch(() => {});
    },
  };
}
