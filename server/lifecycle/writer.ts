/**
 * The one way a status changes. A payment attempt's, a refund's and a bill's state is written here and nowhere else
 * (test/scripts/statusWriters.test.ts searches the server's sources for any other write): a new row gets its chart's
 * first state (`begin`), and every change is the chart's next state from the stored one and an event, written with a
 * compare-and-set on the state it was read in (`move`):
 *
 *     UPDATE payment_attempts SET state = :to, status = … WHERE order_id = :id AND state = :from
 *
 * so of two processes moving one row, one wins and the other reads the row again and decides anew: never an overwrite.
 * An event the chart does not accept in the row's state is refused: nothing is written, the refusal is logged and
 * counted (`checkout_lifecycle_refusals_total`). The effects the chart names for the move (a webhook, points, the
 * bill, a refund) are the domain's, run in the move's transaction; every move is counted
 * (`checkout_lifecycle_moves_total`) once it is committed.
 */
import type { Kysely, Selectable, Updateable } from 'kysely';
import { initialTransition, type AnyStateMachine, type EventObject } from 'xstate';
import { recordLifecycleMove, recordLifecycleRefusal } from '../operations/metrics';
import type { Database } from '../store/database';
import type { Store } from '../store/store';
import { nextMove, storedName, type Move } from './chart';

/** The tables whose rows live by a chart. */
export type LifecycleTable = 'payment_attempts' | 'refunds' | 'bills';
export type RowOf<T extends LifecycleTable> = Selectable<Database[T]>;

/** The columns a state is written with, which only the lifecycle writes: the state and the words the API reads it by. */
export type StateColumn = 'state' | 'status' | 'closed_as';

/** What a caller may write with a move: facts the move brings (the acquirer's order id, its answer), never a state. */
export type Facts<T extends LifecycleTable> = Omit<Updateable<Database[T]>, StateColumn>;

/** A chart bound to its table: where its rows are, what each state writes besides itself, and the effects it names. */
export interface Lifecycle<T extends LifecycleTable, S extends string, E extends EventObject, X extends string> {
  chart: AnyStateMachine;
  table: T;
  key: string & keyof Database[T];
  /** The effects the chart's moves name: a move's caller does every one (`Effects`). */
  effects: readonly X[];
  /**
   * The columns written with a state (`from` null: a new row): the API's words for it, and the moments it marks. Never
   * `state` itself.
   */
  stored(change: { from: S | null; to: S; event: E | null; now: number }): Updateable<Database[T]>;
}

/** A move as stored: the row as it now is, with the move that made it. */
export type Moved<T extends LifecycleTable, E extends EventObject> = Move<E> & { row: RowOf<T> };

/** An effect of a move: the domain's work, in the move's transaction. */
export type Effect<T extends LifecycleTable, E extends EventObject> = (tx: Store, moved: Moved<T, E>, params: unknown) => Promise<void>;
export type Effects<T extends LifecycleTable, E extends EventObject, X extends string> = Record<X, Effect<T, E>>;

/** How a move ended: made, refused by the chart in the row's state (nothing written), or no such row. */
export type MoveResult<T extends LifecycleTable, E extends EventObject> =
  | ({ kind: 'moved' } & Moved<T, E>)
  | { kind: 'refused'; state: string; event: E; row: RowOf<T> }
  | { kind: 'missing' };

/** The event, or how to make it from the row as read (so that a row read again makes it again, from fresh facts). */
export type EventOf<T extends LifecycleTable, E extends EventObject> = E | ((row: RowOf<T>, tx: Store) => E | Promise<E>);

/** The tables as this generic writer sees them: columns by name (each lifecycle's types keep callers exact). */
type AnyTables = Record<string, Record<string, unknown>>;
const tablesOf = (store: Store) => store.db as unknown as Kysely<AnyTables>;

/** A lost race is read again; a row that keeps changing under this many reads is a fault to report, not to retry. */
const MAX_READS = 5;

/** The chart's first state (a new row's). */
export const firstState = (chart: AnyStateMachine): string => storedName(initialTransition(chart)[0].value);

/** Inserts a new row in its chart's first state, with the columns that state is written with; answers it as stored. */
export async function begin<T extends LifecycleTable, S extends string, E extends EventObject, X extends string>(
  store: Store,
  lifecycle: Lifecycle<T, S, E, X>,
  row: Omit<Updateable<Database[T]>, StateColumn>,
): Promise<RowOf<T>> {
  const state = firstState(lifecycle.chart) as S;
  const stored = lifecycle.stored({ from: null, to: state, event: null, now: store.now() });
  const columns: Record<string, unknown> = { ...row, ...stored, state };
  const inserted = await tablesOf(store)
    .insertInto(lifecycle.table as string)
    .values(columns)
    .returningAll()
    .executeTakeFirstOrThrow();
  return inserted as RowOf<T>;
}

/**
 * Moves the row `id` by `event`, in the caller's transaction (or one of its own): the chart's next state written with
 * a compare-and-set on the state read, then the move's effects. A lost race (the row changed since it was read) reads
 * it again and decides again; an event the chart refuses there writes nothing and is logged and counted.
 */
export function move<T extends LifecycleTable, S extends string, E extends EventObject, X extends string>(
  store: Store,
  lifecycle: Lifecycle<T, S, E, X>,
  id: string,
  eventOf: EventOf<T, E>,
  how: { effects: Effects<T, E, X>; facts?: Facts<T> },
): Promise<MoveResult<T, E>> {
  const { chart, table } = lifecycle;
  const key: string = lifecycle.key;
  return store.transaction(async (tx) => {
    for (let read = 1; ; read++) {
      const row = (await tablesOf(tx).selectFrom(table as string).selectAll().where(key, '=', id).executeTakeFirst()) as (RowOf<T> & { state: S }) | undefined;
      if (!row) return { kind: 'missing' };
      const event = typeof eventOf === 'function' ? await eventOf(row, tx) : eventOf;
      const chosen = nextMove(chart, row.state, event);
      if (!chosen) {
        tx.afterCommit(() => {
          recordLifecycleRefusal(chart.id, row.state, event.type);
          tx.log(`${chart.id} ${id}: ${event.type} refused in ${row.state}`);
        });
        return { kind: 'refused', state: row.state, event, row };
      }
      const to = chosen.to as S;
      const stored = lifecycle.stored({ from: row.state, to, event, now: tx.now() });
      const columns: Record<string, unknown> = { ...how.facts, ...stored, state: to };
      const written = (await tablesOf(tx)
        .updateTable(table as string)
        .set(columns)
        .where(key, '=', id)
        .where('state', '=', row.state)
        .returningAll()
        .executeTakeFirst()) as RowOf<T> | undefined;
      if (!written) {
        // Another process moved it since it was read: read it again, never write over its move.
        if (read >= MAX_READS) throw new Error(`${chart.id} ${id}: changed under ${MAX_READS} reads in a row`);
        continue;
      }
      const moved: Moved<T, E> = { ...chosen, row: written };
      tx.afterCommit(() => recordLifecycleMove(chart.id, moved.from, event.type, moved.guard, moved.to));
      for (const effect of moved.effects) {
        const run = (how.effects as Record<string, Effect<T, E> | undefined>)[effect.type];
        if (!run) throw new Error(`${chart.id}: no one does the effect '${effect.type}'`);
        await run(tx, moved, effect.params);
      }
      return { kind: 'moved', ...moved };
    }
  });
}
