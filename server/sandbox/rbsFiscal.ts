/**
 * The RBS fake's fiscal API (receipts apart from a payment), served under /sandbox/rbs/ecomm/gw/partner/api/ofd/v1/
 * and reached by the product over HTTP like the bank's: doReceipt, getReceiptStatus, retryReceipt, with the shop's
 * credentials. It keeps the receipts it was sent (sandbox_fiscal_receipts) and registers each at once, unless told to
 * fail it (the faults 'receipt-failed', 'receipt-cart-refused') or to lose doReceipt's answer ('receipt-answer-lost'),
 * per orderNumber. An order's own receipt, sent with register.do, is listed among its receipts as registered.
 */
import crypto from 'node:crypto';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { ORDER_STATUS } from '../acquirer/rbs';
import { RECEIPT_STATUS } from '../acquirer/fiscal';
import { SANDBOX_ACQUIRER } from '../config';
import type { Store } from '../store/store';
import { otherParty } from './party';
import type { RbsOrderRow, SandboxFiscalReceiptRow } from './tables';

type Params = Record<string, string | undefined>;
type Answer = Record<string, unknown>;

const fail = (errorCode: number, errorMessage: string): Answer => ({ errorCode: String(errorCode), errorMessage });

/** What the fiscal data operator says of a receipt the fake fails, and the recommendation it gives. */
const FAILURES = {
  'receipt-failed': { message: 'ОФД не ответил: чек не зарегистрирован', recommendation: 1 },
  'receipt-cart-refused': { message: 'Сумма позиций не совпадает с итогом чека', recommendation: 2 },
} as const;

/** The id of an order's own receipt (the one register.do carried), stable for the order. */
const paymentReceiptIdOf = (order: RbsOrderRow) => {
  const hex = crypto.createHash('sha256').update(`payment receipt ${order.order_id}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
};

const receiptsOfOrder = (store: Store, orderId: string) =>
  store.db.selectFrom('sandbox_fiscal_receipts').selectAll().where('order_id', '=', orderId).orderBy('created_at').orderBy('receipt_id').execute();
const receiptById = (store: Store, receiptId: string) => store.db.selectFrom('sandbox_fiscal_receipts').selectAll().where('receipt_id', '=', receiptId).executeTakeFirst();

/** Sums in kopecks, as the protocol sends them: whole numbers above 0. */
const isKopecks = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;

/** Why the fake refuses a closing receipt's bundle for the order (a refusal, errorCode 4 or 7), or null. */
function bundleRefusal(order: RbsOrderRow, raw: string | undefined): Answer | null {
  let bundle: { ffdVersion?: unknown; receiptType?: unknown; payments?: { type?: unknown; sum?: unknown }[]; total?: unknown; cartItems?: { items?: Record<string, unknown>[] } };
  try {
    bundle = JSON.parse(raw ?? '');
  } catch {
    return fail(4, 'orderBundle не является JSON');
  }
  const items = bundle?.cartItems?.items;
  if (!Array.isArray(items) || items.length === 0) return fail(4, 'В чеке нет позиций');
  if (bundle.receiptType !== 'sell') return fail(4, 'receiptType должен быть sell');
  if (!Array.isArray(bundle.payments) || bundle.payments.length === 0 || !bundle.payments.every((p) => isKopecks(p?.sum) && [1, 2].includes(Number(p?.type)))) {
    return fail(4, 'payments указаны неверно');
  }
  if (!items.every((item) => isKopecks(item.itemAmount) && isKopecks(item.itemPrice) && typeof item.paymentMethod === 'string' && typeof item.paymentObject === 'string')) {
    return fail(4, 'Позиции чека указаны неверно');
  }
  const itemsTotal = items.reduce((sum, item) => sum + (item.itemAmount as number), 0);
  const paymentsTotal = bundle.payments.reduce((sum, p) => sum + (p.sum as number), 0);
  if (itemsTotal !== bundle.total || paymentsTotal !== bundle.total) return fail(4, 'Сумма позиций и оплат не совпадает с итогом чека');
  if (itemsTotal > order.amount - order.refunded_amount) return fail(7, 'Сумма чека больше оплаченной и не возвращенной суммы заказа');
  return null;
}

const receiptAnswer = (r: SandboxFiscalReceiptRow): Answer => ({
  receiptId: r.receipt_id,
  receiptStatus: r.receipt_status,
  receiptType: 'SELL',
  operationType: 'RECEIPT',
  ...(r.orig_receipt_id ? { origReceiptId: r.orig_receipt_id } : {}),
  ...(r.error_message ? { error: { code: 'OFD_ERROR', message: r.error_message, recommendation: r.recommendation } } : {}),
});

/** What the fiscal fake reads of the acquirer's fake: its orders and the faults it was told to make. */
type OrdersOfTheFake = {
  order(by: { orderId: string }): Promise<RbsOrderRow | undefined>;
  hasFault(fault: 'receipt-failed' | 'receipt-cart-refused' | 'receipt-answer-lost', orderNumber: string): boolean;
};

export const rbsFiscalFake: FastifyPluginAsyncJsonSchemaToTs<{ Options: { fake: OrdersOfTheFake; authorized: (p: Params) => boolean; hang: (orderNumber: string, call: string | undefined) => Promise<unknown> } }> = async (
  app,
  { fake, authorized, hang },
) => {
  const store = app.store;

  /** Whether the fake fails the order's receipts now, and how. */
  const failureOf = (order: RbsOrderRow) =>
    fake.hasFault('receipt-cart-refused', order.order_number) ? FAILURES['receipt-cart-refused'] : fake.hasFault('receipt-failed', order.order_number) ? FAILURES['receipt-failed'] : null;

  const endpoint = (method: string, handle: (p: Params) => Promise<Answer>) =>
    app.post(`${SANDBOX_ACQUIRER.fiscalPath}${method}`, { config: otherParty }, async (request) => {
      const p = (request.body ?? {}) as Params;
      if (!authorized(p)) return fail(5, 'Доступ запрещен');
      return handle(p);
    });

  endpoint('doReceipt', async (p) => {
    const order = p.orderId ? await fake.order({ orderId: p.orderId }) : undefined;
    if (!order) return fail(6, 'Заказ не найден');
    if (order.order_status !== ORDER_STATUS.deposited && order.order_status !== ORDER_STATUS.refunded) return fail(7, 'Заказ не оплачен: чек не может быть сформирован');
    const contact = p.email || p.phone;
    if (!contact) return fail(4, 'Не указаны email или phone покупателя');
    const refusal = bundleRefusal(order, p.orderBundle);
    if (refusal) return refusal;
    if (p.receiptId) {
      const corrected = await receiptById(store, p.receiptId);
      if (!corrected || corrected.order_id !== order.order_id) return fail(6, 'Чек не найден');
      if (corrected.receipt_status < RECEIPT_STATUS.processingError) return fail(7, 'Исправить можно только чек с ошибкой');
    }
    const failure = failureOf(order);
    const t = store.now();
    const receiptId = crypto.randomUUID();
    await store.db
      .insertInto('sandbox_fiscal_receipts')
      .values({
        receipt_id: receiptId,
        order_id: order.order_id,
        orig_receipt_id: p.receiptId ?? null,
        order_bundle: p.orderBundle!,
        contact,
        receipt_status: failure ? RECEIPT_STATUS.processingError : RECEIPT_STATUS.registered,
        error_message: failure?.message ?? null,
        recommendation: failure?.recommendation ?? null,
        created_at: t,
        updated_at: t,
      })
      .execute();
    // Made, but the answer comes too late for the client (its time-out): a doReceipt whose answer was lost.
    if (fake.hasFault('receipt-answer-lost', order.order_number)) await hang(order.order_number, undefined);
    return { errorCode: '0', receiptId };
  });

  endpoint('getReceiptStatus', async (p) => {
    if (p.receiptId) {
      const found = await receiptById(store, p.receiptId);
      if (!found) return fail(6, 'Чек не найден');
      return { errorCode: '0', receipts: [receiptAnswer(found)] };
    }
    const order = p.orderId ? await fake.order({ orderId: p.orderId }) : undefined;
    if (!order) return fail(6, 'Заказ не найден');
    // The order's own receipt first, as the gateway lists it, then those sent apart from the payment.
    const own = order.order_bundle && order.order_status !== ORDER_STATUS.registered ? [{ receiptId: paymentReceiptIdOf(order), receiptStatus: RECEIPT_STATUS.registered, receiptType: 'SELL', operationType: 'PAYMENT' }] : [];
    return { errorCode: '0', receipts: [...own, ...(await receiptsOfOrder(store, order.order_id)).map(receiptAnswer)] };
  });

  endpoint('retryReceipt', async (p) => {
    let ids: unknown;
    try {
      ids = JSON.parse(p.receiptIds ?? '');
    } catch {
      return fail(4, 'receiptIds не является JSON');
    }
    if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string')) return fail(4, 'receiptIds указаны неверно');
    for (const id of ids as string[]) {
      const found = await receiptById(store, id);
      if (!found) return fail(6, `Чек ${id} не найден`);
      if (found.receipt_status < RECEIPT_STATUS.processingError) return fail(7, `Чек ${id} не в ошибке: повторная отправка не нужна`);
      const order = (await fake.order({ orderId: found.order_id }))!;
      const failure = failureOf(order);
      await store.db
        .updateTable('sandbox_fiscal_receipts')
        .set({
          receipt_status: failure ? RECEIPT_STATUS.processingError : RECEIPT_STATUS.registered,
          error_message: failure?.message ?? null,
          recommendation: failure?.recommendation ?? null,
          updated_at: store.now(),
        })
        .where('receipt_id', '=', id)
        .execute();
    }
    return { errorCode: '0', errorMessage: 'Успешно' };
  });
};
