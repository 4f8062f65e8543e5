/**
 * The billing queries: bills and their payment types. A bill's state changes by its chart only (lifecycle/bill.ts,
 * moved by payments/moves.ts: paid, cancelled, expired).
 */
import { billLifecycle } from '../lifecycle/lifecycles';
import { begin } from '../lifecycle/writer';
import { first } from '../store/database';
import { prepared } from '../store/prepared';
import type { Store } from '../store/store';
import type { Insertable } from 'kysely';
import type { BillItemRow, BillRow, NewBill, PaymentTypeRow, PaymentTypesTable } from './tables';

/** Read on every page load, payment and poll: compiled once per engine. */
const hot = {
  billByOid: prepared((db, a: { oid: string }) => db.selectFrom('bills').selectAll().where('oid', '=', a.oid)),
  billByLink: prepared((db, a: { linkId: string }) => db.selectFrom('bills').selectAll().where('link_id', '=', a.linkId)),
  typesOfBill: prepared((db, a: { billOid: string }) => db.selectFrom('payment_types').selectAll().where('bill_oid', '=', a.billOid).orderBy('position')),
};

export const billByOid = async (store: Store, oid: string): Promise<BillRow | undefined> => first(await hot.billByOid(store, { oid }));

/** The bill a page names by its public link id (payLinks.ts). */
export const billByLink = async (store: Store, linkId: string): Promise<BillRow | undefined> => first(await hot.billByLink(store, { linkId }));

export const typesOfBill = (store: Store, billOid: string): Promise<PaymentTypeRow[]> => hot.typesOfBill(store, { billOid });

/** Whether the database has no bill at all (the demo seed's "empty"). */
export const hasNoBills = async (store: Store): Promise<boolean> =>
  (await store.db.selectFrom('bills').select('oid').limit(1).executeTakeFirst()) === undefined;

/** Inserts a new bill, open (its chart's first state). */
export async function insertBill(store: Store, bill: NewBill): Promise<void> {
  const { status: _open, ...columns } = bill;
  await begin(store, billLifecycle, { ...columns, created_at: store.now() });
}

export async function insertType(store: Store, type: Insertable<PaymentTypesTable>): Promise<void> {
  await store.db.insertInto('payment_types').values(type).execute();
}

/** Open bills whose expiresAt has come and that are not closed yet, oldest deadline first. */
export const billsDueToExpire = async (store: Store, limit: number): Promise<string[]> =>
  (
    await store.db
      .selectFrom('bills')
      .select('oid')
      .where('expires_at', 'is not', null)
      .where('expires_at', '<=', store.now())
      .where('closed_as', 'is', null)
      .where('status', '=', 'open')
      // A held bill does not expire while its money is held: left out, so it never takes a place of one that does.
      .where('state', '!=', 'held')
      .orderBy('expires_at')
      .limit(limit)
      .execute()
  ).map((row) => row.oid);

/** The positions the merchant gave the bill, in their order (none: the bill has its one default position). */
export const itemsOfBill = (store: Store, billOid: string): Promise<BillItemRow[]> =>
  store.db.selectFrom('bill_items').selectAll().where('bill_oid', '=', billOid).orderBy('position').execute();

export async function insertItems(store: Store, items: readonly BillItemRow[]): Promise<void> {
  if (items.length > 0) await store.db.insertInto('bill_items').values([...items]).execute();
}
