/**
 * A new bill as the merchant API's body gives it (`createBillBody`), in the server's terms. The API and the desk's
 * new-bill form post the same body, so both come in through here to createBill.
 */
import { defaultPaymentTypes, type BillInput } from '../billing/bills';
import type { Measure, PaymentMethod, PaymentObject, Vat } from '../billing/fiscalCodes';
import { quantityMilliOf } from '../billing/items';
import type { PaymentTypeCode } from '../billing/tables';
import type { AppOptions } from '../config';
import { parseMoney } from '../platform/money';

/**
 * The body of POST /bills in the server's terms; money strings become kopecks by their digits. A way to pay the body
 * caps nothing for takes the server's cap for its kind (`defaultMaximum`: the fast-payment system's limit).
 */
export function billInputOf(
  body: {
  objectOID?: string;
  purpose: string;
  amount: { value: string };
  customer?: { name?: string; phone?: string; email?: string; custNo?: string };
  noReg?: boolean;
  points?: { enabled: boolean; usefulLimit?: number };
  parts?: { minimum: { value: string } };
  paymentTypes?: { code: PaymentTypeCode; name: string; commission?: { value: string }; maximum?: { value: string }; showAggregatorOffer?: boolean; showExecuterOffer?: boolean }[];
  expiresAt?: string;
  returnUrl?: string;
  capture?: 'automatic' | 'manual';
  items?: { name: string; quantity: number; price: { value: string }; vat: Vat; paymentMethod: PaymentMethod; paymentObject: PaymentObject; measure?: Measure }[];
  },
  defaultMaximum: (code: PaymentTypeCode) => number | null,
): BillInput {
  const sumKopecks = parseMoney(body.amount.value) ?? -1;
  return {
    ...(body.objectOID !== undefined ? { objectOID: body.objectOID } : {}),
    purpose: body.purpose,
    sumKopecks,
    partMinimumKopecks: body.parts ? (parseMoney(body.parts.minimum.value) ?? -1) : null,
    customer: body.customer ?? {},
    noReg: body.noReg ?? true,
    points: body.points ? { enabled: body.points.enabled, usefulLimit: body.points.usefulLimit ?? 0 } : { enabled: false, usefulLimit: 0 },
    paymentTypes: (body.paymentTypes ?? defaultPaymentTypes(sumKopecks, body.capture)).map((type) => ({
      code: type.code,
      name: type.name,
      commissionKopecks: 'commissionKopecks' in type ? type.commissionKopecks : type.commission ? (parseMoney(type.commission.value) ?? -1) : 0,
      maximumKopecks: 'maximum' in type && type.maximum ? (parseMoney(type.maximum.value) ?? -1) : defaultMaximum(type.code),
      showAggregatorOffer: type.showAggregatorOffer ?? false,
      showExecuterOffer: type.showExecuterOffer ?? false,
    })),
    expiresAt: body.expiresAt === undefined ? null : Date.parse(body.expiresAt),
    returnUrl: body.returnUrl ?? null,
    ...(body.capture ? { capture: body.capture } : {}),
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

/** The server's cap for a way to pay that a bill caps nothing for: the fast-payment system's limit. */
export const serverMaximums =
  (options: Pick<AppOptions, 'sbpPaymentMaximumKopecks'>) =>
  (code: PaymentTypeCode): number | null =>
    code === 'SBP' ? options.sbpPaymentMaximumKopecks : null;
