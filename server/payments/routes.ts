import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { AppOptions } from '../config';
import { AcquirerUnavailable, AttemptAbandoned } from '../acquirer/gateway';
import { pointsConfirmed } from '../accounts/codes';
import { PaymentRefused, startPayment } from './start';
import { receiptOf, receiptSchema } from './receipt';
import { html } from '../platform/render';
import { csrfRefusal, keepAlive, requireSession, sessionIdOf, tokenMatches } from '../accounts/sessions';
import { toRoubles } from '../platform/money';
import type { BillRow, PaymentTypeRow } from '../store/store';
import type { PaymentStatus } from '../store/schema';
import {
  cardTypeOidSchema,
  failureSchema,
  isManagerId,
  isPlausibleEmail,
  managerIdSchema,
  nullableOidSchema,
  objectOidSchema,
  orderIdSchema,
} from '../platform/schemas';

const paymentUrlSchema = {
  body: {
    type: 'object',
    required: ['pointsSum', 'objectOID', 'cardTypeOID', 'email', 'userOID'],
    additionalProperties: false,
    properties: {
      pointsSum: { type: ['integer', 'null'], minimum: 0, maximum: 100_000_000 },
      objectOID: objectOidSchema,
      cardTypeOID: { anyOf: [cardTypeOidSchema, { type: 'null' }] },
      email: { type: ['string', 'null'], maxLength: 254 },
      userOID: nullableOidSchema,
      manager_id: managerIdSchema,
    },
  },
} as const;

export const resultSchema = {
  body: {
    type: 'object',
    required: ['transactionID', 'billOID'],
    additionalProperties: false,
    properties: { transactionID: orderIdSchema, billOID: objectOidSchema },
  },
  // The page polls this every 5 s per payer: a compiled serializer instead of JSON.stringify.
  response: {
    200: {
      type: 'object',
      properties: {
        success: { type: 'boolean' },
        status: { type: ['string', 'null'], enum: ['created', 'success', 'declined', 'refunded', null] },
        objectOID: { type: 'string' },
        receipt: receiptSchema,
      },
    },
    403: failureSchema,
    404: failureSchema,
  },
} as const;

const offerSchema = {
  body: {
    type: 'object',
    required: ['type', 'objectOID', 'cardTypeOID'],
    additionalProperties: false,
    properties: {
      type: { type: 'string', enum: ['aggregator', 'executer'] },
      objectOID: objectOidSchema,
      cardTypeOID: cardTypeOidSchema,
    },
  },
} as const;

/** The offer's text for a payment type, as HTML (the page shows it in the offer modal). */
function offerDescription(kind: 'aggregator' | 'executer', bill: BillRow, type: PaymentTypeRow): string {
  // Each ends its sentence: 'руб.' carries its own full stop (issue 17: no 'руб..').
  const fee = type.commission_kopecks > 0 ? `${toRoubles(type.commission_kopecks).toLocaleString('ru-RU', { minimumFractionDigits: 2 })} руб.` : 'не взимается.';
  if (kind === 'aggregator') {
    return html`<h2>Оферта платежного агрегатора</h2>
<p>Платеж способом «${type.name}» принимает платежный агрегатор по поручению получателя. Назначение платежа: ${bill.purpose}.</p>
<p>Сервисный сбор агрегатора: ${fee} Нажимая «Оплатить», вы принимаете условия оферты.</p>`.markup;
  }
  return html`<h2>Условия платежа</h2>
<p>Исполнитель принимает оплату способом «${type.name}» в счет обязательств по документу: ${bill.purpose}.</p>
<p>Обязательство считается исполненным с момента поступления денег исполнителю. Нажимая «Оплатить», вы принимаете условия платежа.</p>`.markup;
}

export const paymentRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: { options: AppOptions } }> = async (app, { options }) => {
  const store = app.store;
  app.post('/api/getPaymentUrl/', { schema: paymentUrlSchema }, async (request, reply) => {
    const body = request.body;
    const session = await requireSession(store, request);
    // The receipt goes to this address (SPEC §5: the same rule as /ajax/check-email/).
    const email = body.email === null ? null : body.email.trim();
    if (email !== null && !isPlausibleEmail(email)) return reply.code(400).send({ success: false, error: 'Неверный email' });
    // The payment is the signed-in user's, whatever the page says: a guest's is nobody's, another's is refused.
    const account = session.account_id ? await store.accountById(session.account_id) : undefined;
    if (body.userOID !== null && body.userOID !== account?.oid) {
      return reply.code(403).send({ success: false, error: 'Пользователь не совпадает с вошедшим в кабинет' });
    }
    // The body's manager id was checked by the schema; a cookie that does not fit is nobody's and is ignored.
    const cookieManager = request.cookies.manager_id;
    const managerId = body.manager_id ?? (cookieManager !== undefined && isManagerId(cookieManager) ? cookieManager : null);

    const bill = await store.billByOid(body.objectOID);
    if (!bill) return reply.code(404).send({ success: false, error: 'Документ не найден' });
    const type = body.cardTypeOID ? await store.typeOfBill(body.cardTypeOID, bill.oid) : undefined;
    if (body.cardTypeOID && !type) return reply.code(400).send({ success: false, error: 'Неизвестный способ оплаты' });
    const points = body.pointsSum ?? 0;
    // Points belong to the customer: spending them needs the customer's phone proven by a use-points code in this
    // session (SPEC §4's code check), not just the bill's link.
    if (points > 0 && bill.cust_no && !(await pointsConfirmed(store, options.now, session.id, bill.cust_no))) {
      return reply.code(403).send({ success: false, error: 'Подтвердите списание баллов кодом из СМС' });
    }
    const payment = { bill, type, points, email, userOid: account?.oid ?? null, managerId };
    try {
      // The attempt first (in a transaction), then the acquirer's order for it (outside). Twice at most: a pending attempt
      // past its session time-out is reconciled (and ended) first, and an attempt whose card form was lost is ended;
      // either way the second round starts a fresh attempt.
      for (let round = 1; ; round++) {
        const started = await startPayment(store, payment);
        if (started.kind === 'closed') return { success: true, isClosedWithoutProcessing: true, info: { orderId: started.attempt.order_id } };
        const { attempt } = started;
        if (round === 1 && attempt.expires_at !== null && options.now() > attempt.expires_at) {
          await app.gateway.reconcile(attempt.order_id).catch(() => undefined);
          continue;
        }
        try {
          return { success: true, isClosedWithoutProcessing: false, info: await app.gateway.paymentInfo(attempt, started.type, bill) };
        } catch (error) {
          if (error instanceof AttemptAbandoned && round === 1) continue;
          throw error;
        }
      }
    } catch (error) {
      if (error instanceof PaymentRefused) return reply.code(error.statusCode).send({ success: false, error: error.message });
      // The attempt is kept: Pay works again once the acquirer is back, with the same attempt and order.
      if (error instanceof AcquirerUnavailable || error instanceof AttemptAbandoned) {
        return reply.code(503).send({ success: false, error: new AcquirerUnavailable(null).message });
      }
      throw error;
    }
  });

  app.post(
    '/api/offerText/',
    { schema: offerSchema },
    async (request, reply) => {
      const { type: kind, objectOID, cardTypeOID } = request.body;
      const bill = await store.billByOid(objectOID);
      const type = bill ? await store.typeOfBill(cardTypeOID, bill.oid) : undefined;
      const shown = type && (kind === 'aggregator' ? type.show_aggregator_offer : type.show_executer_offer) === 1;
      if (!bill || !type || !shown) return reply.code(404).send({ success: false, error: 'Оферта не найдена' });
      return { success: true, OfferDescription: offerDescription(kind, bill, type) };
    },
  );

  // Polled every 5 s by every payer waiting for a result: one database read answers it, the session's CSRF token
  // included (the CSRF hook only checks that a cookie and a token came).
  app.post('/api/getResult/', { schema: resultSchema, config: { csrf: 'handler' } }, async (request, reply) => {
    const { transactionID, billOID } = request.body;
    const sessionId = sessionIdOf(request)!;
    const found = await store.pollStatus(sessionId, transactionID, billOID);
    if (!tokenMatches(found.csrf_token, request.headers['x-csrf-token'])) return reply.code(403).send(csrfRefusal);
    // An ended session is refused like a missing one (a live one has its last-seen time written once a minute).
    const times = { created_at: found.session_created_at!, seen_at: found.session_seen_at! };
    if (!(await keepAlive(store, sessionId, times))) return reply.code(403).send(csrfRefusal);
    if (!found.bill) return reply.code(404).send({ success: false, error: 'Документ не найден' });
    // An order of another bill is as unknown as no order: answer without objectOID ("Order not found").
    if (!found.status || !found.order_id) return { success: true, status: null };
    if (found.status === 'created' && found.bill_status !== 'paid') {
      // Not heard of lately: ask the acquirer in the background (a lost callback never leaves a paid payer waiting);
      // this poll answers from the database at once, a later one sees the outcome.
      if ((found.acquirer_checked_at ?? 0) < options.now() - options.reconcileAfterMs) app.gateway.reconcileSoon(found.order_id);
      return { success: true, status: found.status, objectOID: found.bill };
    }
    const status = found.status === 'created' ? await statusOfPaidElsewhere(found.order_id) : found.status;
    if (status === 'created') return { success: true, status, objectOID: found.bill };
    // A final word comes once per payment: only then one more read, for the receipt; the 5 s polls stay one read.
    const receipt = await receiptOf(store, found.order_id);
    return { success: true, status, objectOID: found.bill, ...(receipt ? { receipt } : {}) };
  });

  /**
   * Still waiting, and the bill was paid by another attempt (another tab, another payer): this one can no longer
   * succeed, so the payer hears now that the bill is paid rather than wait (issue 17): 'declined', its receipt saying
   * the bill is paid. But the payer may have paid this one too, its callback not in yet (sent back from the acquirer's
   * form, the result page polls at once): the acquirer is asked first, so such a payer hears 'refunded', never that
   * nothing happened. 'created' when the acquirer could not say (unreachable, or a callback being applied right now):
   * the next poll decides.
   */
  async function statusOfPaidElsewhere(orderId: string): Promise<PaymentStatus> {
    const { attempt, answered } = await app.gateway.askAcquirer(orderId).catch((error: unknown) => {
      app.log.warn({ err: error, orderId }, 'the acquirer could not say how a payment of a paid bill ended');
      return { attempt: undefined, answered: false };
    });
    if (!attempt) return 'created';
    if (attempt.status !== 'created') return attempt.status;
    // Never sent to the acquirer (nothing could be paid), or the acquirer says it is not paid: the bill is paid elsewhere.
    return attempt.register_started_at === null || answered ? 'declined' : 'created';
  }
};
