import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { unpayableReason } from '../billing/bills';
import { sentCodeOf } from '../accounts/codes';
import { toRoubles } from '../platform/money';
import { usefulPoints } from './start';
import { receiptOf } from './receipt';
import { findSession } from '../accounts/sessions';
import type { BillRow, PaymentTypeRow, Store } from '../store/store';
import { objectOidSchema, orderIdSchema } from '../platform/schemas';

/** One payment type as the page reads it (SPEC §3). `Comission` is the fee in percent of the sum. */
function paymentTypeOut(type: PaymentTypeRow, bill: BillRow) {
  const percent = Math.round((type.commission_kopecks / bill.sum_kopecks) * 10000) / 100;
  return {
    OID: type.oid,
    Code: type.code,
    Name: type.name,
    ...(type.commission_kopecks > 0 ? { Comission: percent } : {}),
    CommissionSumm: toRoubles(type.commission_kopecks),
    IsShowAggregatorOffer: type.show_aggregator_offer === 1,
    IsShowExecuterOffer: type.show_executer_offer === 1,
  };
}

/** The initial bill data of SPEC §3, as `GET /ajax/object-info/{id}` answers it. */
export async function objectInfo(store: Store, bill: BillRow) {
  const [available, types, useful] = await Promise.all([
    bill.cust_no ? store.pointsBalance(bill.cust_no) : 0,
    store.typesOfBill(bill.oid),
    usefulPoints(store, bill),
  ]);
  return {
    user: { Name: bill.client_name, Phone: bill.client_phone, Email: bill.client_email },
    info: { PaymentPurpose: bill.purpose, CustNo: bill.cust_no, Summ: toRoubles(bill.sum_kopecks), Email: bill.bill_email },
    cardTypes: types.map((type) => paymentTypeOut(type, bill)),
    paymentURL: '/api/getPaymentUrl/',
    isBill: bill.object_type === 'bill',
    objectOID: bill.oid,
    objectType: bill.object_type,
    noReg: bill.no_reg === 1,
    pointsEnabled: bill.points_enabled === 1,
    usefulPoints: useful,
    availablePoints: bill.points_enabled ? available : 0,
    /** Where "Вернуться в магазин" leads after paying (issue 14); null when the merchant gave none. */
    returnUrl: bill.return_url,
  };
}

/**
 * The bill's open attempt, for a reload to resume (issue 17): its order, way to pay and status, and for fast payment
 * the QR the acquirer gave (stored on the attempt by the gateway). One store read; an attempt the acquirer has not
 * registered yet, or a fast payment without its QR, has nothing to resume.
 */
export async function openAttemptOf(store: Store, billOid: string) {
  const open = await store.openAttemptOfBill(billOid);
  if (!open) return null;
  const sbp = open.sbp_qrc_id && open.sbp_payload && open.sbp_image ? { payload: open.sbp_payload, qrcId: open.sbp_qrc_id, image: open.sbp_image } : null;
  if (open.type_code === 'SBP' && !sbp) return null;
  return {
    orderId: open.order_id,
    cardTypeOID: open.card_type_oid,
    code: open.type_code,
    status: open.status,
    // What the step shows again: the amount follows from the type and the points the attempt was made with.
    pointsUsed: open.points_used,
    ...(open.type_code === 'SBP' && sbp ? { sbp } : {}),
  };
}

const orderIdPattern = new RegExp(orderIdSchema.pattern);

/**
 * 'Попробовать снова' after a declined attempt (issue 17): the way to pay and the receipt e-mail it had, so the bill
 * opens with both kept. Only for a finished, unpaid attempt of this bill, named by its (unguessable) order id.
 */
async function retryOf(store: Store, bill: BillRow, orderId: string | undefined) {
  // A mangled link's retry is ignored, never a refusal: the bill opens as usual. The result page's link names the order
  // as the acquirer's return URL did (its orderId) or as the checkout polled it (ours, or the QR's id): any of them.
  const attempt = orderId && orderIdPattern.test(orderId) ? await store.attemptByAnyId(orderId) : undefined;
  if (!attempt || attempt.bill_oid !== bill.oid || attempt.status !== 'declined') return null;
  return { cardTypeOID: attempt.card_type_oid, email: attempt.email };
}

export const billRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const store = app.store;
  app.get(
    '/ajax/object-info/:id',
    {
      schema: {
        params: { type: 'object', properties: { id: objectOidSchema }, required: ['id'] },
        querystring: { type: 'object', properties: { retry: { type: 'string', maxLength: 200 } } },
      },
    },
    async (request, reply) => {
      const bill = await store.billByOid(request.params.id);
      if (!bill) return reply.code(404).send({ success: false, error: 'Документ не найден' });
      // A paid, cancelled or expired bill has nothing left to pay. Paid, the page shows 'Счет оплачен' with the receipt
      // of the payment that paid it (issue 17), so the answer says `paid`; the others show SPEC §8's data error.
      const closed = unpayableReason(bill, store.now());
      if (closed) {
        if (bill.status !== 'paid') return reply.code(409).send({ success: false, error: closed });
        const receipt = bill.paid_order_id ? await receiptOf(store, bill.paid_order_id) : undefined;
        return reply.code(409).send({ success: false, error: closed, paid: true, ...(receipt ? { receipt } : {}) });
      }
      // `sentCode`: this session's code still to be entered, so a reload on the code screen returns to it (issue 17).
      const [info, openAttempt, retry, sentCode] = await Promise.all([
        objectInfo(store, bill),
        openAttemptOf(store, bill.oid),
        retryOf(store, bill, request.query.retry),
        findSession(store, request).then((session) => sentCodeOf(store, session?.id, bill)),
      ]);
      return { ...info, openAttempt, retry, sentCode };
    },
  );
};
