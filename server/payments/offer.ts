/** The offer a payment type may ask the payer to accept before paying (the page shows it in the offer modal). */
import type { BillRow, PaymentTypeRow } from '../billing/tables';
import { roublesText } from '../platform/money';
import { html } from '../platform/render';

export type OfferKind = 'aggregator' | 'executer';

/** Whether the type asks for this offer at all. */
export const showsOffer = (type: PaymentTypeRow, kind: OfferKind) => (kind === 'aggregator' ? type.show_aggregator_offer : type.show_executer_offer) === 1;

/** The offer's text for a payment type, as HTML. */
export function offerDescription(kind: OfferKind, bill: BillRow, type: PaymentTypeRow): string {
  // Each ends its sentence: 'руб.' carries its own full stop (never 'руб..').
  const fee = type.commission_kopecks > 0 ? roublesText(type.commission_kopecks) : 'не взимается.';
  if (kind === 'aggregator') {
    return html`<h2>Оферта платежного агрегатора</h2>
<p>Платеж способом «${type.name}» принимает платежный агрегатор по поручению получателя. Назначение платежа: ${bill.purpose}.</p>
<p>Сервисный сбор агрегатора: ${fee} Вы принимаете условия оферты, отметив «Я принимаю условия оферты» перед оплатой.</p>`.markup;
  }
  return html`<h2>Условия платежа</h2>
<p>Исполнитель принимает оплату способом «${type.name}» в счет обязательств по документу: ${bill.purpose}.</p>
<p>Обязательство считается исполненным с момента поступления денег исполнителю. Вы принимаете условия платежа, отметив «Я принимаю условия платежа» перед оплатой.</p>`.markup;
}
