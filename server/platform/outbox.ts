/**
 * What every outbox shares (the SMS texts', the webhook events'): a row waits `pending` until it is settled, is due at
 * `next_attempt_at`, and a sender takes it for one attempt with a lease (`lease_until`), by one conditional UPDATE, so
 * that of several senders (processes) only one gets it, and a sender that dies lets its lease run out for another.
 * Each domain names its own table and keeps its own states; the rule of which rows may be taken is this one.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../store/database';
import type { Store } from '../store/store';

/** The columns every outbox's rows have for their senders. */
interface OutboxRow {
  id: number | string;
  state: string;
  next_attempt_at: number;
  lease_until: number | null;
}

/** The tables that are outboxes (their rows have those columns). */
export type Outbox = { [T in keyof Database]: Selectable<Database[T]> extends OutboxRow ? T : never }[keyof Database];

type RowOf<T extends Outbox> = Selectable<Database[T]>;
type IdOf<T extends Outbox> = (RowOf<T> & OutboxRow)['id'];

/** An outbox as these queries see it: the columns all outboxes have, under the table's real name given at run time. */
const outboxOf = (store: Store, table: Outbox) => ({ db: store.db as unknown as Kysely<{ outbox: OutboxRow }>, table: table as unknown as 'outbox' });

/** Ids of the rows due now and held by no live lease, the longest due first. */
export async function dueInOutbox<T extends Outbox>(store: Store, outbox: T, limit: number): Promise<IdOf<T>[]> {
  const t = store.now();
  const { db, table } = outboxOf(store, outbox);
  const rows = await db
    .selectFrom(table)
    .select('id')
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', t)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', t)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id as IdOf<T>);
}

/**
 * Takes a pending row for one attempt until `leaseUntil` unless a live lease holds it: answers the row, or undefined
 * when another sender has it or it is settled. `dueOnly` also leaves it alone until its next attempt is due.
 */
export async function takeFromOutbox<T extends Outbox>(
  store: Store,
  outbox: T,
  id: IdOf<T>,
  leaseUntil: number,
  dueOnly: boolean,
): Promise<RowOf<T> | undefined> {
  const t = store.now();
  const { db, table } = outboxOf(store, outbox);
  let query = db
    .updateTable(table)
    .set({ lease_until: leaseUntil })
    .where('id', '=', id as OutboxRow['id'])
    .where('state', '=', 'pending')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', t)]));
  if (dueOnly) query = query.where('next_attempt_at', '<=', t);
  return (await query.returningAll().executeTakeFirst()) as RowOf<T> | undefined;
}
