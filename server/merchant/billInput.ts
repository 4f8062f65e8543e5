/**
 * A new bill as the merchant API's body gives it (`createBillBody`), in the server's terms: money strings become kopecks
 * by their digits. The API and the desk's new-bill form post the same body, so both come in through here to createBill.
 */
import type { BillInput } from '../billing/bills';
import type { Measure, PaymentMethod, PaymentObject, Vat } from '../billing/fiscalCodes';
import { quantityMilliOf } from '../billing/items';
import type { PaymentTypeCode } from '../billing/tables';
import { parseMoney } from '../platform/money';

/** The body of POST /bills in the server's terms. */
export function billInputOf(body: {
  objectOID?: string;
  purpose: string;
  amount: { value: string };
  customer?: { name?: string; phone?: string; email?: string; custNo?: string };
  noReg?: boolean;
  points?: { enabled: boolean; usefulLimit?: number };
  paymentTypes?: { code: PaymentTypeCode; name: string; commission?: { value: string }; showAggregatorOffer?: boolean; showExecuterOffer?: boolean }[];
  expiresAt?: string;
  returnUrl?: string;
  items?: { name: string; quantity: number; price: { value: string }; vat: Vat; paymentMethod: PaymentMethod; paymentObject: PaymentObject; measure?: Measure }[];
}): BillInput {
  return {
    ...(body.objectOID !== undefined ? { objectOID: body.objectOID } : {}),
    purpose: body.purpose,
    sumKopecks: parseMoney(body.amount.value) ?? -1,
    customer: body.customer ?? {},
    noReg: body.noReg ?? true,
    points: body.points ? { enabled: body.points.enabled, usefulLimit: body.points.usefulLimit ?? 0 } : { enabled: false, usefulLimit: 0 },
    ...(body.paymentTypes
      ? {
          paymentTypes: body.paymentTypes.map((type) => ({
            code: type.code,
            name: type.name,
            commissionKopecks: type.commission ? (parseMoney(type.commission.value) ?? -1) : 0,
            showAggregatorOffer: type.showAggregatorOffer ?? false,
            showExecuterOffer: type.showExecuterOffer ?? false,
          })),
        }
      : {}),
    expiresAt: body.expiresAt === undefined ? null : Date.parse(body.expiresAt),
    returnUrl: body.returnUrl ?? null,
    ...(body.items
      ? {
          items: body.items.map((item) => ({
            name: item.name,
            // Unparseable values become ones the bill's check refuses with the field's name (-1).
            quantityMilli: quantityMilliOf(item.quantity) ?? -1,
            priceKopecks: parseMoney(item.price.value) ?? -1,
            vat: item.vat,
            paymentMethod: item.paymentMethod,
            paymentObject: item.paymentObject,
            measure: item.measure ?? null,
          })),
        }
      : {}),
  };
}

