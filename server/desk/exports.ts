/**
 * The desk's exports for a period of the merchant's days (both ends included): the payments that ended in it and the
 * bills issued in it, as CSV for Excel (csv.ts). A payment's sum is what was charged (the fee included, the points
 * not); the day's payments that succeeded add up to the day's figure on the payments page.
 */
import { billsPage } from '../billing/search';
import { billStatus, type BillStatus } from '../billing/status';
import { merchantDayStart, paymentsEndedBetween } from '../payments/figures';
import { refundedByOrder } from '../payments/refundQueries';
import type { Store } from '../store/store';
import { csvFile, type Cell } from './csv';
import { payUrlOf } from './links';
import { billStatusWords } from '../../src/desk/services/rules/billStatusWords';

export const EXPORT_MAX_DAYS = 366;

const PAYMENT_STATUS: Record<'success' | 'refunded', string> = { success: 'Оплачен', refunded: 'Возвращен: счет не мог его принять' };
/** The bill's status as the desk's pages say it. */
const BILL_STATUS_WORDS: Record<BillStatus, string> = billStatusWords;

const text = (value: string | null | undefined): Cell => (value ? { text: value } : null);

export async function paymentsCsv(store: Store, fromDay: number, toDay: number): Promise<{ csv: string; rows: number }> {
  const payments = await paymentsEndedBetween(store, merchantDayStart(fromDay), merchantDayStart(toDay + 1));
  const refunded = await refundedByOrder(
    store,
    payments.map((payment) => payment.order_id),
  );
  const header = [
    'Дата и время (МСК)',
    'Номер счета',
    'Номер платежа',
    'Способ оплаты',
    'Статус',
    'Сумма, руб.',
    'В т. ч. комиссия, руб.',
    'Баллы',
    'Возвращено, руб.',
    'Назначение',
    'Клиент',
    'Телефон',
    'E-mail для чека',
  ];
  const rows = payments.map((payment): Cell[] => [
    { at: payment.updated_at },
    { text: payment.bill_oid },
    { text: payment.order_id },
    { text: payment.method_name },
    { text: PAYMENT_STATUS[payment.status as 'success' | 'refunded'] },
    { kopecks: payment.amount_kopecks },
    { kopecks: payment.commission_kopecks },
    { text: String(payment.points_used) },
    { kopecks: refunded.get(payment.order_id)?.kopecks ?? 0 },
    text(payment.purpose),
    text(payment.client_name),
    text(payment.client_phone),
    text(payment.email),
  ]);
  return { csv: csvFile(header, rows), rows: rows.length };
}

export async function billsCsv(store: Store, fromDay: number, toDay: number, publicUrl: string): Promise<{ csv: string; rows: number }> {
  const { rows: bills } = await billsPage(store, { from: merchantDayStart(fromDay), to: merchantDayStart(toDay + 1), page: 1, size: 100_000 });
  const now = store.now();
  const header = ['Создан (МСК)', 'Номер счета', 'Назначение', 'Сумма, руб.', 'Статус', 'Клиент', 'Телефон', 'E-mail', 'Оплачен (МСК)', 'Ссылка на оплату'];
  const rows = [...bills].reverse().map((bill): Cell[] => [
    { at: bill.created_at },
    { text: bill.oid },
    text(bill.purpose),
    { kopecks: bill.sum_kopecks },
    { text: BILL_STATUS_WORDS[billStatus(bill, now)] },
    text(bill.client_name),
    text(bill.client_phone),
    text(bill.client_email),
    bill.paid_at === null ? null : { at: bill.paid_at },
    { text: payUrlOf(bill, publicUrl) },
  ]);
  return { csv: csvFile(header, rows), rows: rows.length };
}
