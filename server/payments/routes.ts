/**
 * The checkout page's payment calls: the bill data it opens with, Pay, the offer text and the status poll. Each turns
 * HTTP into a call of the payments domain and its answer back.
 */
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { accountById } from '../accounts/accountQueries';
import { emailSchema } from '../accounts/schemas';
import { findSession, requireSession, sessionIdOf } from '../accounts/sessions';
import { typeOfPage } from '../billing/payLinks';
import { billByLink } from '../billing/queries';
import { TEXT_LINE } from '../../src/services/rules/freeText';
import { paymentTypeCodes } from '../../src/services/rules/paymentKinds';
import { kopecksOf } from '../../src/services/rules/pricing';
import type { AppOptions } from '../config';
import { recordPaymentStarted, type PaymentMethod } from '../operations/metrics';
import { cookieOf } from '../platform/cookies';
import { isPlausibleEmail } from '../platform/patterns';
import {
  cardTypeOidSchema,
  failureSchema,
  isManagerId,
  managerIdSchema,
  nullableOidSchema,
  objectOidSchema,
  orderIdSchema,
} from '../platform/schemas';
import { billDataAnswer } from './billData';
import { PaymentRefused } from './errors';
import { AcquirerUnavailable } from './gatewayPort';
import { offerDescription, showsOffer } from './offer';
import { offerDocuments } from '../profile/profile';
import { pay } from './pay';
import { pollDepsOf, pollPayment, pollReply } from './poll';
import { receiptSchema } from './receipt';

const paymentUrlSchema = {
  body: {
    type: 'object',
    required: ['pointsSum', 'objectOID', 'cardTypeOID', 'email', 'userOID'],
    additionalProperties: false,
    properties: {
      pointsSum: { type: ['integer', 'null'], minimum: 0, maximum: 100_000_000 },
      // What of a bill with parts this payment pays, in roubles; absent or null: what remains (or the way's cap).
      partSum: { type: ['number', 'null'], exclusiveMinimum: 0, maximum: 100_000_000_000 },
      objectOID: objectOidSchema,
      cardTypeOID: { anyOf: [cardTypeOidSchema, { type: 'null' }] },
      email: { ...emailSchema, type: ['string', 'null'] },
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
        status: { type: ['string', 'null'], enum: ['created', 'held', 'success', 'declined', 'released', 'refunded', null] },
        objectOID: { type: 'string' },
        // A held payment: how much is held (roubles) and until when the hold lasts at most (ISO 8601 UTC).
        hold: { type: 'object', required: ['amount', 'until'], properties: { amount: { type: 'number' }, until: { type: 'string' } } },
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

const billDataSchema = {
  params: { type: 'object', properties: { id: objectOidSchema }, required: ['id'] },
  querystring: { type: 'object', properties: { retry: { type: 'string', maxLength: 200, format: TEXT_LINE } } },
} as const;

/**
 * The way to pay a Pay names, as the metrics count it: the code of its payment type (`<link id>.<code>`), points
 * alone (none named), or `unknown` for a code no bill offers: a label takes a value from a fixed list only.
 */
function methodNamed(cardTypeOid: string | null): PaymentMethod | 'unknown' {
  if (cardTypeOid === null) return 'points';
  const code = cardTypeOid.slice(cardTypeOid.lastIndexOf('.') + 1);
  return paymentTypeCodes.find((known) => known === code) ?? 'unknown';
}

export const paymentRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: { options: AppOptions } }> = async (app, { options }) => {
  const store = app.store;
  const pollDeps = pollDepsOf(app, options);

  app.get('/ajax/object-info/:id', { schema: billDataSchema }, async (request, reply) => {
    // The page names a bill by its link id only: the merchant's objectOID is as unknown here as any other id.
    const bill = await billByLink(store, request.params.id);
    const answer = await billDataAnswer(store, bill, () => findSession(store, request), request.query.retry, options.fiscal);
    return reply.code(answer.status).send(answer.body);
  });

  app.post('/api/getPaymentUrl/', { schema: paymentUrlSchema }, async (request, reply) => {
    const body = request.body;
    const session = await requireSession(store, request);
    // The receipt goes to this address, by the same rule as /ajax/check-email/.
    const email = body.email === null ? null : body.email.trim();
    if (email !== null && !isPlausibleEmail(email)) return reply.code(400).send({ success: false, error: 'Неверный email' });
    // The payment is the signed-in user's, whatever the page says: a guest's is nobody's, another's is refused.
    const account = session.account_id ? await accountById(store, session.account_id) : undefined;
    if (body.userOID !== null && body.userOID !== account?.oid) {
      return reply.code(403).send({ success: false, error: 'Пользователь не совпадает с вошедшим в кабинет' });
    }
    // The body's manager id was checked by the schema; a cookie that does not fit is nobody's and is ignored.
    const cookieManager = cookieOf(request, 'manager_id');
    const managerId = body.manager_id ?? (cookieManager !== undefined && isManagerId(cookieManager) ? cookieManager : null);
    const method = methodNamed(body.cardTypeOID);
    const partKopecks = body.partSum == null ? null : kopecksOf(body.partSum);
    // Roubles and kopecks, no finer: a fraction of a kopeck is a mistake to say, never to round away.
    if (body.partSum != null && Math.abs(body.partSum * 100 - partKopecks!) > 1e-6) {
      return reply.code(400).send({ success: false, error: 'Сумма платежа — в рублях и копейках' });
    }
    try {
      // The Pay's acquirer calls and what they move are part of this request.
      const work = store.forRequest(request.id);
      const paid = await pay(work, app.gateway.on(work), {
        billLink: body.objectOID,
        cardTypeOid: body.cardTypeOID,
        points: body.pointsSum ?? 0,
        partKopecks,
        email,
        userOid: account?.oid ?? null,
        managerId,
        sessionId: session.id,
        receipts: app.appOptions.fiscal.taxSystem !== null,
      });
      recordPaymentStarted(method, paid.kind === 'closed' ? 'closed_by_points' : 'to_acquirer');
      if (paid.kind === 'closed') return { success: true, isClosedWithoutProcessing: true, info: { orderId: paid.orderId } };
      return { success: true, isClosedWithoutProcessing: false, info: paid.info };
    } catch (error) {
      recordPaymentStarted(method, error instanceof PaymentRefused ? 'refused' : error instanceof AcquirerUnavailable ? 'acquirer_unavailable' : 'failed');
      if (error instanceof PaymentRefused) {
        return reply.code(error.statusCode).send({ success: false, error: error.message, ...(error.closedAs ? { closedAs: error.closedAs } : {}) });
      }
      if (error instanceof AcquirerUnavailable) return reply.code(503).send({ success: false, error: error.message });
      throw error;
    }
  });

  app.post('/api/offerText/', { schema: offerSchema }, async (request, reply) => {
    const { type: kind, objectOID, cardTypeOID } = request.body;
    const bill = await billByLink(store, objectOID);
    const type = bill ? await typeOfPage(store, bill, cardTypeOID) : undefined;
    if (!bill || !type || !showsOffer(type, kind)) return reply.code(404).send({ success: false, error: 'Оферта не найдена' });
    return { success: true, OfferDescription: offerDescription((await offerDocuments(store))[kind], bill, type) };
  });

  // Polled every 5 s by every payer waiting for a result: one database read answers it, the session's CSRF token
  // included (the CSRF hook only checks that a cookie and a token came).
  app.post('/api/getResult/', { schema: resultSchema, config: { csrf: 'handler' } }, async (request, reply) => {
    const { transactionID, billOID } = request.body;
    const poll = { sessionId: sessionIdOf(request)!, csrfToken: request.headers['x-csrf-token'], orderId: transactionID, billLink: billOID, requestId: request.id };
    const { status, body } = pollReply(await pollPayment(store, pollDeps, poll));
    return reply.code(status).send(body);
  });
};
