import crypto from 'node:crypto';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { ORDER_STATUS } from '../acquirer/rbs';
import { SANDBOX_ACQUIRER, type AppOptions } from '../config';
import { faultSwitches, otherParty } from './party';
import { bundleRefusal, refundItemsCheck } from './rbsBundle';
import { actionDescriptions, DECLINED_BY_MERCHANT, FAULTS, SANDBOX_CALL_HEADER, type RbsFake } from './rbsFake';
import { rbsFiscalFake } from './rbsFiscal';
import { insertRbsOrder, moveRbsOrder, rbsOrder, recordRbsRefund, setRbsQr } from './rbsOrders';
import type { RbsOrderRow } from './tables';
import { named } from '../operations/named';
import { qrPng } from '../platform/qrPng';

const { path: RBS_FAKE_PATH, credentials: SANDBOX_CREDENTIALS, token: SANDBOX_TOKEN } = SANDBOX_ACQUIRER;

type Params = Record<string, string | undefined>;
type Answer = Record<string, unknown>;

const fail = (errorCode: number, errorMessage: string): Answer => ({ errorCode: String(errorCode), errorMessage });
// Unref'd: a slow answer never keeps a closing process (or a test worker) alive.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * The sandbox's acquirer: a fake of the RBS REST protocol, served under /sandbox/rbs/payment/rest/ and
 * reached by the product over HTTP like any bank. Form-encoded POSTs, the shop's credentials, JSON answers with
 * errorCode. Its orders are its own (sandbox_rbs_orders).
 */
export const rbsFakeRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: { options: AppOptions; fake: RbsFake } }> = async (app, { options, fake }) => {
  const store = app.store;
  const notify = fake.notify;
  const hasFault = fake.hasFault;
  const authorized = (p: Params) =>
    p.token === SANDBOX_TOKEN || (p.userName === SANDBOX_CREDENTIALS.userName && p.password === SANDBOX_CREDENTIALS.password);
  const endpoint = (method: string, handle: (p: Params, call: string | undefined) => Promise<Answer | 'http-500'>) =>
    app.post(`${RBS_FAKE_PATH}${method}`, { config: otherParty }, async (request, reply) => {
      const p = (request.body ?? {}) as Params;
      if (!authorized(p)) return fail(5, 'Доступ запрещен');
      const call = request.headers[SANDBOX_CALL_HEADER];
      const answer = await handle(p, typeof call === 'string' ? call : undefined);
      if (answer === 'http-500') return reply.code(500).type('text/plain').send('Internal Server Error');
      return answer;
    });

  const statusAnswer = (o: RbsOrderRow): Answer => ({
    errorCode: '0',
    errorMessage: 'Успешно',
    orderNumber: o.order_number,
    orderStatus: o.order_status,
    actionCode: o.action_code,
    actionCodeDescription: actionDescriptions[o.action_code] ?? 'Отказ',
    amount: o.amount,
    currency: o.currency,
    date: o.created_at,
    attributes: [{ name: 'mdOrder', value: o.order_id }],
    // The card, once one was typed on the form (a fast payment or a bank app has none).
    ...(o.masked_pan ? { cardAuthInfo: { maskedPan: o.masked_pan, paymentSystem: 'VISA' } } : {}),
    paymentAmountInfo: paymentAmountInfo(o),
  });

  /** Where the order's money stands, as the gateway's paymentAmountInfo says it. */
  const paymentAmountInfo = (o: RbsOrderRow) => {
    const paid = o.order_status === ORDER_STATUS.deposited || o.order_status === ORDER_STATUS.refunded;
    const held = o.order_status === ORDER_STATUS.held || (o.order_status === ORDER_STATUS.deposited && hasFault('not-settled', o.order_number));
    const states: Record<number, string> = { 0: 'CREATED', 1: 'APPROVED', 2: 'DEPOSITED', 3: 'REVERSED', 4: 'REFUNDED', 5: 'CREATED', 6: 'DECLINED' };
    return {
      paymentState: held ? 'APPROVED' : (states[o.order_status] ?? 'CREATED'),
      approvedAmount: paid || held ? o.amount : 0,
      // What was taken: at a capture, what deposit.do took (the rest let go).
      depositedAmount: paid && !held ? o.deposited_amount : 0,
      refundedAmount: o.refunded_amount,
    };
  };

  const register = (preAuth: boolean) => async (p: Params, call: string | undefined): Promise<Answer | 'http-500'> => {
    const orderNumber = p.orderNumber ?? '';
    if (!orderNumber || orderNumber.length > 32) return fail(4, 'Номер заказа не указан или длиннее 32 символов');
    if (!/^[1-9]\d{0,11}$/.test(p.amount ?? '')) return fail(4, 'Сумма указана неверно');
    if ((p.currency ?? '643') !== '643') return fail(3, 'Неизвестная валюта');
    if (!p.returnUrl) return fail(4, 'URL возврата не указан');
    const refusal = bundleRefusal(p.taxSystem, p.orderBundle, Number(p.amount));
    if (refusal) return fail(refusal.errorCode, refusal.errorMessage);
    if (hasFault('register-500', orderNumber)) return 'http-500';
    if (await rbsOrder(store, { orderNumber })) return fail(1, 'Заказ с таким номером уже обработан');
    const orderId = crypto.randomUUID();
    const timeout = Number(p.sessionTimeoutSecs ?? 1200);
    await insertRbsOrder(store, {
      order_id: orderId,
      order_number: orderNumber,
      amount: Number(p.amount),
      currency: '643',
      return_url: p.returnUrl,
      fail_url: p.failUrl ?? null,
      description: p.description ?? null,
      email: p.email ?? null,
      json_params: p.jsonParams ?? null,
      callback_url: p.dynamicCallbackUrl ?? null,
      tax_system: p.taxSystem === undefined ? null : Number(p.taxSystem),
      order_bundle: p.orderBundle ?? null,
      order_status: ORDER_STATUS.registered,
      action_code: 0,
      masked_pan: null,
      expires_at: options.now() + (Number.isFinite(timeout) && timeout > 0 ? timeout : 1200) * 1000,
      pre_auth: preAuth ? 1 : 0,
      deposited_amount: 0,
      deposited_bundle: null,
    });
    // The order exists, but the answer comes too late for the client (its time-out): the SIGKILL/time-out case.
    if (hasFault('register-timeout', orderNumber)) await fake.holdPastTimeout(orderNumber, call);
    // A slow bank: the answer comes, but late (within the client's time-out), as a Pay in flight at a deploy sees it.
    if (hasFault('register-slow', orderNumber)) await fake.holdBack(orderNumber, () => sleep(options.acquirerTimeoutMs / 2));
    return { orderId, formUrl: `${options.publicUrl}/sandbox/acquirer/${orderId}` };
  };
  endpoint('register.do', register(false));
  // Two-stage: the payer pays as usual, and the money is held (orderStatus 1) until deposit.do or reverse.do.
  endpoint('registerPreAuth.do', register(true));

  endpoint('getOrderStatusExtended.do', async (p, call) => {
    const found = await fake.order(p.orderId ? { orderId: p.orderId } : p.orderNumber ? { orderNumber: p.orderNumber } : {});
    if (!found) return fail(6, 'Заказ не найден');
    if (hasFault('status-slow', found.order_number)) await fake.holdPastTimeout(found.order_number, call);
    return statusAnswer(found);
  });

  endpoint('sbp/c2b/qr/dynamic/get.do', async (p) => {
    const found = p.mdOrder ? await fake.order({ orderId: p.mdOrder }) : undefined;
    if (!found) return fail(6, 'Заказ не найден');
    if (found.order_status !== ORDER_STATUS.registered) return fail(7, 'Заказ уже не ожидает оплаты');
    const qrId = found.qr_id ?? crypto.randomUUID().replaceAll('-', '').toUpperCase();
    if (!found.qr_id) await setRbsQr(store, found.order_id, qrId);
    const payload = `${options.publicUrl}/sandbox/sbp/${qrId}`;
    const size = Math.min(1024, Math.max(64, Number(p.qrWidth ?? 256) || 256));
    const png = qrPng(payload, { margin: 1, width: size });
    return { errorCode: '0', qrId, qrStatus: 'STARTED', payload, renderedQr: png.toString('base64') };
  });

  endpoint('sbp/c2b/qr/status.do', async (p) => {
    const found = p.mdOrder ? await fake.order({ orderId: p.mdOrder }) : undefined;
    if (!found || !found.qr_id || found.qr_id !== p.qrId) return fail(6, 'QR-код не найден');
    const paid = found.order_status === ORDER_STATUS.deposited || found.order_status === ORDER_STATUS.refunded;
    const refused = found.order_status === ORDER_STATUS.declined || found.order_status === ORDER_STATUS.reversed;
    return {
      errorCode: '0',
      qrStatus: paid ? 'CONFIRMED' : refused ? 'REJECTED' : 'STARTED',
      transactionState: paid ? 'DEPOSITED' : refused ? 'DECLINED' : 'CREATED',
    };
  });

  endpoint('refund.do', async (p, call) => {
    const found = p.orderId ? await fake.order({ orderId: p.orderId }) : undefined;
    if (!found) return fail(6, 'Заказ не найден');
    const amount = Number(p.amount);
    if (!Number.isInteger(amount) || amount <= 0) return fail(4, 'Сумма указана неверно');
    if (found.order_status !== ORDER_STATUS.deposited) return fail(7, 'Возврат невозможен: заказ не оплачен');
    if (hasFault('refund-refused', found.order_number)) return fail(7, 'Возврат отклонен банком');
    if (hasFault('not-settled', found.order_number)) return fail(7, 'Заказ еще не рассчитан: возможна только отмена (reverse.do)');
    if (found.refunded_amount + amount > found.deposited_amount) return fail(7, 'Сумма возврата больше суммы заказа');
    // An order that carried a receipt is refunded by its positions (those captured, after a partial capture), so the
    // refund receipt matches.
    let refundedItems = found.refunded_items;
    const bundle = found.deposited_bundle ?? found.order_bundle;
    if (bundle) {
      const checked = refundItemsCheck(bundle, p.refundItems, amount, found.refunded_items ? (JSON.parse(found.refunded_items) as Record<string, number>) : {});
      if ('refusal' in checked) return fail(checked.refusal.errorCode, checked.refusal.errorMessage);
      refundedItems = JSON.stringify(checked.returned);
    }
    const moved = await recordRbsRefund(store, found, found.refunded_amount + amount, refundedItems);
    if (!moved) return fail(7, 'Возврат невозможен: заказ изменился, повторите запрос');
    notify(moved, 'refunded', true);
    // Made, but the answer comes too late for the client (its time-out): a refund whose answer was lost.
    if (hasFault('refund-answer-lost', found.order_number)) await fake.holdPastTimeout(found.order_number, call);
    return { errorCode: '0', errorMessage: 'Успешно' };
  });

  endpoint('deposit.do', async (p, call) => {
    const found = p.orderId ? await fake.order({ orderId: p.orderId }) : undefined;
    if (!found) return fail(6, 'Заказ не найден');
    if (!/^\d{1,12}$/.test(p.amount ?? '')) return fail(4, 'Сумма указана неверно');
    if (found.order_status !== ORDER_STATUS.held) return fail(7, 'Списание невозможно: сумма не заблокирована');
    if (hasFault('deposit-refused', found.order_number)) return fail(7, 'Списание отклонено банком');
    // 0: all that is held.
    const amount = Number(p.amount) === 0 ? found.amount : Number(p.amount);
    if (amount > found.amount) return fail(7, 'Сумма списания больше заблокированной');
    // Less than the whole of an order with a receipt: the receipt is for the positions captured, adding up exactly.
    let bundle = found.order_bundle;
    if (found.order_bundle && amount < found.amount) {
      if (!p.orderBundle) return fail(4, 'Не указан orderBundle: при частичном списании нужны списываемые позиции');
      const refusal = bundleRefusal(String(found.tax_system ?? ''), p.orderBundle, amount);
      if (refusal) return fail(refusal.errorCode, refusal.errorMessage);
      bundle = p.orderBundle;
    }
    const moved = await moveRbsOrder(store, found.order_id, [ORDER_STATUS.held], {
      order_status: ORDER_STATUS.deposited,
      action_code: 0,
      deposited_amount: amount,
      deposited_bundle: bundle,
    });
    if (!moved) return fail(7, 'Списание невозможно: заказ изменился, повторите запрос');
    notify(moved, 'deposited', true);
    // Made, but the answer comes too late for the client (its time-out): a capture whose answer was lost.
    if (hasFault('deposit-answer-lost', found.order_number)) await fake.holdPastTimeout(found.order_number, call);
    return { errorCode: '0', errorMessage: 'Успешно' };
  });

  endpoint('reverse.do', async (p, call) => {
    const found = p.orderId ? await fake.order({ orderId: p.orderId }) : undefined;
    if (!found) return fail(6, 'Заказ не найден');
    if (hasFault('reverse-refused', found.order_number)) return fail(7, 'Отмена отклонена банком');
    const part = p.amount === undefined ? null : Number(p.amount);
    if (part !== null && (!Number.isSafeInteger(part) || part <= 0)) return fail(4, 'Сумма указана неверно');
    let moved: RbsOrderRow | undefined;
    if (part !== null && part < found.amount && found.order_status === ORDER_STATUS.held) {
      // A part of a hold let go: the rest stays held.
      moved = await moveRbsOrder(store, found.order_id, [ORDER_STATUS.held], { order_status: ORDER_STATUS.held, action_code: 0, amount: found.amount - part });
    } else {
      if (part !== null && part > found.amount) return fail(7, 'Сумма отмены больше суммы заказа');
      moved = await moveRbsOrder(store, found.order_id, [ORDER_STATUS.held, ORDER_STATUS.deposited], { order_status: ORDER_STATUS.reversed, action_code: 0 });
      if (moved) notify(moved, 'reversed', true);
    }
    if (!moved) return fail(7, 'Отмена невозможна в этом состоянии заказа');
    if (hasFault('reverse-answer-lost', found.order_number)) await fake.holdPastTimeout(found.order_number, call);
    return { errorCode: '0', errorMessage: 'Успешно' };
  });

  // An order not paid yet ends: its form, QR and bank-app link die. One paid (or ended) meanwhile is refused, and the
  // merchant reads its status instead.
  endpoint('decline.do', async (p) => {
    const found = p.orderId ? await fake.order({ orderId: p.orderId }) : p.orderNumber ? await fake.order({ orderNumber: p.orderNumber }) : undefined;
    if (!found) return fail(6, 'Заказ не найден');
    if (hasFault('decline-500', found.order_number)) return 'http-500';
    const moved = await moveRbsOrder(store, found.order_id, [ORDER_STATUS.registered, ORDER_STATUS.authStarted], { order_status: ORDER_STATUS.declined, action_code: DECLINED_BY_MERCHANT });
    if (!moved) return fail(7, 'Отмена невозможна: заказ уже оплачен или завершен');
    return { errorCode: '0', errorMessage: 'Успешно' };
  });

  await app.register(named(rbsFiscalFake), { fake, authorized, hang: fake.holdPastTimeout });

  faultSwitches(app, '/sandbox/rbs/faults', FAULTS, { name: 'orderNumber', pattern: '^.{1,32}$' }, fake.setFault);

  // The answers held back right now, by orderNumber: what a test in another process waits on.
  app.get('/sandbox/rbs/held', { config: otherParty }, async () => ({ held: Object.fromEntries(fake.heldAnswers) }));
};
