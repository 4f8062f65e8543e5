/** Every call to the acquirer, kept for support ("what happened to my payment"): never the credentials. */
import type { Generated } from 'kysely';
import type { Store } from '../store/store';
import type { Exchange } from './port';

export interface AcquirerExchangesTable {
  id: Generated<number>;
  order_id: string | null;
  method: string;
  request: string;
  answer: string | null;
  error: string | null;
  http_status: number | null;
  ms: number;
  created_at: number;
  /** The request that caused the call (its X-Request-Id); null for the sweep's own. */
  request_id: string | null;
}

declare module '../store/database' {
  interface Database {
    acquirer_exchanges: AcquirerExchangesTable;
  }
}

/** Keeps one exchange as the adapter reported it, with the id of the request it was part of. */
export async function recordExchange(store: Store, exchange: Exchange): Promise<void> {
  await store.db
    .insertInto('acquirer_exchanges')
    .values({
      order_id: exchange.attempt,
      method: exchange.method,
      request: JSON.stringify(exchange.request),
      answer: exchange.answer === null ? null : JSON.stringify(exchange.answer),
      error: exchange.error,
      http_status: exchange.httpStatus,
      ms: exchange.ms,
      created_at: store.now(),
      request_id: exchange.requestId,
    })
    .execute();
}
