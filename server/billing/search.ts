/**
 * Finding bills: the merchant's desk lists them newest first, by the words a person searches with (the bill's number,
 * the customer's name, phone or e-mail) and by status. Each bill's words are folded once, when it is made (createBill
 * calls `keepSearchWords`), so a search compares folded text on both engines alike (SQLite's and PostgreSQL's own
 * case rules differ for Cyrillic). The status filter is the rule of status.ts written as a condition on the columns it
 * reads: test/server/billing/search.test.ts holds the two equal for a bill in every state.
 */
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../store/database';
import type { Store } from '../store/store';
import type { BillStatus } from './status';
import type { BillRow } from './tables';

/** Lower case, ё as е, spaces as one: what the search compares. */
export const foldWords = (text: string): string => text.toLocaleLowerCase('ru-RU').replace(/ё/g, 'е').replace(/\s+/g, ' ').trim();

/** A bill's words as its search row keeps them. */
export const searchWordsOf = (bill: Pick<BillRow, 'oid' | 'client_name' | 'client_phone' | 'client_email'>): string =>
  foldWords([bill.oid, bill.client_name, bill.client_email ?? '', bill.client_phone ?? ''].join(' '));

/** Keeps a new bill's words, in the transaction that makes it. */
export async function keepSearchWords(tx: Store, bill: Pick<BillRow, 'oid' | 'client_name' | 'client_phone' | 'client_email'>): Promise<void> {
  await tx.db.insertInto('bill_search').values({ bill_oid: bill.oid, words: searchWordsOf(bill) }).execute();
}

/**
 * What a search looks for: a phone as it is typed (`+7 (999) 000-00-01`, `8 999 …`) becomes its digits, 7 first;
 * anything else is folded as the bills' words are. Empty: no search.
 */
export function searchTermOf(query: string): string {
  const trimmed = query.trim();
  const digits = trimmed.replace(/\D/g, '');
  if (/^[\d\s()+-]+$/.test(trimmed) && digits.length >= 5) return digits.length === 11 && digits.startsWith('8') ? `7${digits.slice(1)}` : digits;
  return foldWords(trimmed);
}

/** The condition of a bill status on the bills' columns (status.ts's rule, `now` its clock). */
export function statusCondition(eb: ExpressionBuilder<Database, 'bills'>, status: BillStatus, now: number) {
  const open = eb('bills.status', '=', 'open');
  const notClosed = eb('bills.closed_as', 'is', null);
  const due = eb.and([eb('bills.expires_at', 'is not', null), eb('bills.expires_at', '<=', now)]);
  const notDue = eb.or([eb('bills.expires_at', 'is', null), eb('bills.expires_at', '>', now)]);
  // The same rule as billStatus, as a condition: a held bill stays held past its deadline.
  switch (status) {
    case 'paid':
      return eb.and([eb('bills.status', '=', 'paid'), eb('bills.state', '!=', 'handedOver')]);
    case 'handed_over':
      return eb.and([eb('bills.status', '=', 'paid'), eb('bills.state', '=', 'handedOver')]);
    case 'cancelled':
      return eb.and([open, eb('bills.closed_as', '=', 'cancelled')]);
    case 'held':
      return eb.and([open, notClosed, eb('bills.state', '=', 'held')]);
    case 'expired':
      return eb.and([open, eb.or([eb('bills.closed_as', '=', 'expired'), eb.and([notClosed, due, eb('bills.state', '!=', 'held')])])]);
    case 'partially_paid':
      return eb.and([open, notClosed, notDue, eb('bills.state', '=', 'partlyPaid')]);
    case 'unpaid':
      return eb.and([open, notClosed, notDue, eb('bills.state', 'not in', ['held', 'partlyPaid'])]);
  }
}

export interface BillsQuery {
  search?: string;
  statuses?: BillStatus[];
  /** Created at or after, before (epoch ms). */
  from?: number;
  to?: number;
  page: number;
  size: number;
}

/** A page of bills, newest first, and how many match in all. */
export async function billsPage(store: Store, query: BillsQuery): Promise<{ rows: BillRow[]; total: number }> {
  const now = store.now();
  const term = query.search ? searchTermOf(query.search) : '';
  let base = store.db.selectFrom('bills');
  if (term) {
    // The term's own % and _ match only themselves.
    const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) => eb.exists(eb.selectFrom('bill_search').select('bill_search.bill_oid').whereRef('bill_search.bill_oid', '=', 'bills.oid').where(sql<boolean>`bill_search.words LIKE ${pattern} ESCAPE '\\'`)));
  }
  if (query.statuses && query.statuses.length > 0) {
    const statuses = query.statuses;
    base = base.where((eb) => eb.or(statuses.map((status) => statusCondition(eb, status, now))));
  }
  if (query.from !== undefined) base = base.where('bills.created_at', '>=', query.from);
  if (query.to !== undefined) base = base.where('bills.created_at', '<', query.to);
  const [rows, count] = await Promise.all([
    base
      .selectAll('bills')
      .orderBy('bills.created_at', 'desc')
      .orderBy('bills.oid', 'desc')
      .limit(query.size)
      .offset((query.page - 1) * query.size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

declare module '../store/database' {
  interface Database {
    bill_search: { bill_oid: string; words: string };
  }
}
