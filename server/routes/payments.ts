import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import type { AppOptions } from '../config';
import { PaymentRefused, startPayment } from '../payments';
import type { AttemptRow, PaymentTypeRow, Store } from '../store/store';
import { objectOidSchema } from './bills';

interface PaymentUrlBody {
  pointsSum: number | null;
  objectOID: string;
  cardTypeOID: string | null;
  email: string | null;
  userOID: string | null;
  manager_id?: string | null;
}

const nullableId = { type: ['string', 'null'], minLength: 1, maxLength: 100 } as const;

const paymentUrlSchema = {
  body: {
    type: 'object',
    required: ['pointsSum', 'objectOID', 'cardTypeOID', 'email', 'userOID'],
    additionalProperties: false,
    properties: {
      pointsSum: { type: ['integer', 'null'], minimum: 0, maximum: 100_000_000 },
      objectOID: objectOidSchema,
      cardTypeOID: nullableId,
      email: { type: ['string', 'null'], maxLength: 254 },
      userOID: nullableId,
      manager_id: nullableId,
    },
  },
} as const;

const resultSchema = {
  body: {
    type: 'object',
    required: ['transactionID', 'billOID'],
    additionalProperties: false,
    properties: { transactionID: { type: 'string', minLength: 1, maxLength: 100 }, billOID: objectOidSchema },
  },
} as const;

/** Where the payer goes to pay an attempt, by the type's code (sandbox parties; a real acquirer would answer these). */
async function attemptInfo(options: AppOptions, attempt: AttemptRow, type: PaymentTypeRow) {
  const base = options.publicUrl;
  switch (type.code) {
    case 'ALL':
    case 'AllSberP':
      return { orderId: attempt.order_id, formUrl: `${base}/sandbox/acquirer/${attempt.order_id}` };
    case 'SBP': {
      // The sandbox bank uses the order id as its QR transaction id, so status polls find the attempt either way.
      const payload = `${base}/sandbox/sbp/${attempt.order_id}`;
      const png = await QRCode.toBuffer(payload, { type: 'png', margin: 1, width: 256 });
      return {
        orderId: attempt.order_id,
        formUrl: payload,
        data: { payload, qrcId: attempt.order_id, image: { content: png.toString('base64'), mediaType: 'image/png' } },
      };
    }
    case 'SberPaySite':
    case 'SberPaySiteP':
      return { orderId: attempt.order_id, bankInvoiceId: attempt.order_id, formUrl: `${base}/sandbox/acquirer/${attempt.order_id}` };
  }
}

export async function paymentRoutes(app: FastifyInstance, { options, store }: { options: AppOptions; store: Store }) {
  app.post<{ Body: PaymentUrlBody }>('/api/getPaymentUrl/', { schema: paymentUrlSchema }, async (request, reply) => {
    const body = request.body;
    const bill = store.billByOid(body.objectOID);
    if (!bill) return reply.code(404).send({ success: false, error: 'Документ не найден' });
    const type = body.cardTypeOID ? store.typeOfBill(body.cardTypeOID, bill.oid) : undefined;
    if (body.cardTypeOID && !type) return reply.code(400).send({ success: false, error: 'Неизвестный способ оплаты' });
    try {
      const started = startPayment(store, {
        bill,
        type,
        points: body.pointsSum ?? 0,
        email: body.email,
        userOid: body.userOID,
        managerId: body.manager_id ?? request.cookies.manager_id ?? null,
      });
      if (started.kind === 'closed') {
        return { success: true, isClosedWithoutProcessing: true, info: { orderId: started.attempt.order_id } };
      }
      return { success: true, isClosedWithoutProcessing: false, info: await attemptInfo(options, started.attempt, started.type) };
    } catch (error) {
      if (error instanceof PaymentRefused) return reply.code(error.statusCode).send({ success: false, error: error.message });
      throw error;
    }
  });

  app.post<{ Body: { transactionID: string; billOID: string } }>('/api/getResult/', { schema: resultSchema }, async (request, reply) => {
    const { transactionID, billOID } = request.body;
    if (!store.billByOid(billOID)) return reply.code(404).send({ success: false, error: 'Документ не найден' });
    const attempt = store.attemptByOrder(transactionID);
    // An order of another bill is as unknown as no order: answer without objectOID ("Order not found").
    if (!attempt || attempt.bill_oid !== billOID) return { success: true, status: null };
    return { success: true, status: attempt.status, objectOID: attempt.bill_oid };
  });
}
