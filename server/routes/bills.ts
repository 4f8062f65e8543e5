import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { unpayableReason } from '../bills';
import { toRoubles } from '../money';
import { usefulPoints } from '../payments';
import type { BillRow, PaymentTypeRow, Store } from '../store/store';
import { objectOidSchema } from './schemas';


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

export const billRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const store = app.store;
  app.get(
    '/ajax/object-info/:id',
    { schema: { params: { type: 'object', properties: { id: objectOidSchema }, required: ['id'] } } },
    async (request, reply) => {
      const bill = await store.billByOid(request.params.id);
      if (!bill) return reply.code(404).send({ success: false, error: 'Документ не найден' });
      // A paid, cancelled or expired bill has nothing left to pay: the page shows SPEC §8's data error.
      const closed = unpayableReason(bill, store.now());
      if (closed) return reply.code(409).send({ success: false, error: closed });
      return objectInfo(store, bill);
    },
  );
};
