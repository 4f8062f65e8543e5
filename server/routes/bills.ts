import type { FastifyInstance } from 'fastify';
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
export function objectInfo(store: Store, bill: BillRow) {
  const available = bill.cust_no ? store.pointsBalance(bill.cust_no) : 0;
  return {
    user: { Name: bill.client_name, Phone: bill.client_phone, Email: bill.client_email },
    info: { PaymentPurpose: bill.purpose, CustNo: bill.cust_no, Summ: toRoubles(bill.sum_kopecks), Email: bill.bill_email },
    cardTypes: store.typesOfBill(bill.oid).map((type) => paymentTypeOut(type, bill)),
    paymentURL: '/api/getPaymentUrl/',
    isBill: bill.object_type === 'bill',
    objectOID: bill.oid,
    objectType: bill.object_type,
    noReg: bill.no_reg === 1,
    pointsEnabled: bill.points_enabled === 1,
    usefulPoints: usefulPoints(store, bill),
    availablePoints: bill.points_enabled ? available : 0,
  };
}

export async function billRoutes(app: FastifyInstance, { store }: { store: Store }) {
  app.get<{ Params: { id: string } }>(
    '/ajax/object-info/:id',
    { schema: { params: { type: 'object', properties: { id: objectOidSchema }, required: ['id'] } } },
    async (request, reply) => {
      const bill = store.billByOid(request.params.id);
      if (!bill) return reply.code(404).send({ success: false, error: 'Документ не найден' });
      // A paid bill has nothing left to pay: the page shows SPEC §2's "possibly already paid" error.
      if (bill.status === 'paid') return reply.code(409).send({ success: false, error: 'Счет уже оплачен' });
      return objectInfo(store, bill);
    },
  );
}
