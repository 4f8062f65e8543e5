/**
 * A lease on a row: a column saying "someone is at work on this row until then" (null when nobody is), taken by one
 * conditional UPDATE so that of several processes only one gets it, while one that dies lets its lease run out for
 * another. A lease held until a moment is over at that moment. The outboxes' senders (outbox.ts), the acquirer's
 * requests about an attempt and the free call's reads at the provider take theirs by this rule.
 */
import { expressionBuilder, type Expression, type Kysely, type Selectable, type SqlBool } from 'kysely';
import { changedRows, type Database } from '../store/database';
import type { Store } from '../store/store';

/** Any table as the lease sees it: columns by name, at run time. */
type AnyRow = Record<string, unknown>;

/** No live lease holds the row: its lease was never taken, was given back, or has run out by `now`. */
export function noLiveLease(column: string, now: number): Expression<SqlBool> {
  const eb = expressionBuilder<Record<string, Record<string, number | null>>, string>();
  return eb.or([eb(column, 'is', null), eb(column, '<=', now)]);
}

type RowOf<T extends keyof Database> = Selectable<Database[T]>;
/** The columns of a table that can hold a lease (a time, or null). */
type LeaseColumn<T extends keyof Database> = { [C in keyof RowOf<T>]: null extends RowOf<T>[C] ? (RowOf<T>[C] extends number | null ? C : never) : never }[keyof RowOf<T>];

/**
 * Takes the lease in `column` of the row whose columns equal all of `row`, until `until`, unless a live lease holds it:
 * true when this caller got it.
 */
export async function takeLease<T extends keyof Database>(store: Store, table: T, row: Partial<RowOf<T>>, column: LeaseColumn<T> & string, until: number): Promise<boolean> {
  const db = store.db as unknown as Kysely<Record<string, AnyRow>>;
  let query = db.updateTable(table as string).set({ [column]: until });
  for (const [name, value] of Object.entries(row)) query = query.where(name, '=', value);
  return changedRows(await query.where(noLiveLease(column, store.now())).executeTakeFirstOrThrow()) === 1;
}
