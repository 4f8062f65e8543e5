/**
 * The payments' figures for the merchant's desk: what successful payments brought in, by day and by way to pay, and the
 * payments of a period for an export. A payment counts on the moment it succeeded (its status changed to success),
 * in whole days of the merchant's time zone; a payment given back because its bill could not keep it never counts.
 */
import type { PaymentTypeRow } from '../billing/tables';
import type { Store } from '../store/store';
import type { AttemptWithMethod } from './queries';

/** Moscow: UTC+3 all year (no daylight saving since 2014). */
export const MERCHANT_UTC_OFFSET_MS = 3 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/** The merchant's day a moment falls on, as days since 1970-01-01 in its time zone. */
export const merchantDayOf = (t: number): number => Math.floor((t + MERCHANT_UTC_OFFSET_MS) / DAY_MS);

/** When a merchant's day begins (epoch ms). */
export const merchantDayStart = (day: number): number => day * DAY_MS - MERCHANT_UTC_OFFSET_MS;

export interface DayFigure {
  /** Days since 1970-01-01 in the merchant's time zone. */
  day: number;
  method: PaymentTypeRow['code'];
  count: number;
  kopecks: number;
}

/** The successful payments between two moments (from inclusive, to exclusive), summed per merchant's day and way to pay. */
export async function paidByDay(store: Store, from: number, to: number): Promise<DayFigure[]> {
  const rows = await store.db
    .selectFrom('payment_attempts')
    .innerJoin('payment_types', 'payment_types.oid', 'payment_attempts.card_type_oid')
    .select((eb) => [
      // Integer division on both engines: the column and the constants (literals, not parameters, which SQLite would bind
      // as reals) are whole numbers, and the times positive.
      eb.cast<number>(eb(eb.parens(eb('payment_attempts.updated_at', '+', eb.lit(MERCHANT_UTC_OFFSET_MS))), '/', eb.lit(DAY_MS)), 'bigint').as('day'),
      'payment_types.code as method',
      eb.fn.countAll<number | string>().as('count'),
      eb.cast<number>(eb.fn.sum<number>('payment_attempts.amount_kopecks'), 'bigint').as('kopecks'),
    ])
    .where('payment_attempts.status', '=', 'success')
    .where('payment_attempts.updated_at', '>=', from)
    .where('payment_attempts.updated_at', '<', to)
    .groupBy(['day', 'payment_types.code'])
    .execute();
  return rows.map((row) => ({ day: Number(row.day), method: row.method, count: Number(row.count), kopecks: Number(row.kopecks) }));
}

/** A payment of an export, with its bill's purpose and customer. */
export type ExportedPayment = AttemptWithMethod & { method_name: string; purpose: string; client_name: string; client_phone: string | null; client_email: string | null };

/** The payments that succeeded between two moments (or were given back whole because their bill could not keep them), in order. */
export const paymentsEndedBetween = (store: Store, from: number, to: number): Promise<ExportedPayment[]> =>
  store.db
    .selectFrom('payment_attempts')
    .innerJoin('payment_types', 'payment_types.oid', 'payment_attempts.card_type_oid')
    .innerJoin('bills', 'bills.oid', 'payment_attempts.bill_oid')
    .selectAll('payment_attempts')
    .select(['payment_types.code as method', 'payment_types.name as method_name', 'bills.purpose', 'bills.client_name', 'bills.client_phone', 'bills.client_email'])
    .where('payment_attempts.status', 'in', ['success', 'refunded'])
    .where('payment_attempts.updated_at', '>=', from)
    .where('payment_attempts.updated_at', '<', to)
    .orderBy('payment_attempts.updated_at')
    .orderBy('payment_attempts.order_id')
    .limit(100_000)
    .execute();
