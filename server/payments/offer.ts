/**
 * The offer a payment type may ask the payer to accept before paying (the page shows it in the offer modal): the
 * merchant's document (its profile: published at the desk, or the default texts) with this bill's blanks filled.
 */
import type { BillRow, PaymentTypeRow } from '../billing/tables';
import { roublesText } from '../platform/money';
import { offerHtml, type OfferDocument, type OfferKind } from '../profile/offers';

export type { OfferKind };

/** Whether the type asks for this offer at all. */
export const showsOffer = (type: PaymentTypeRow, kind: OfferKind) => (kind === 'aggregator' ? type.show_aggregator_offer : type.show_executer_offer) === 1;

/** The offer's text for a payment type, as HTML. */
export function offerDescription(document: OfferDocument, bill: BillRow, type: PaymentTypeRow): string {
  // Each ends its sentence: 'руб.' carries its own full stop (never 'руб..').
  const fee = type.commission_kopecks > 0 ? roublesText(type.commission_kopecks) : 'не взимается.';
  return offerHtml(document, { '{способ оплаты}': type.name, '{назначение платежа}': bill.purpose, '{сервисный сбор}': fee });
}
