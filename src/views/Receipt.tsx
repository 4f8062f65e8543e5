import { useState, type ReactNode } from 'react';
import { formatMoney, formatPoints } from '../services/format';
import { kopecksOf, roublesOf } from '../services/pricing';
import type { Merchant } from '../services/pageConfig';
import { receiptMessages as t } from '../services/receiptMessages';
import type { Receipt as ReceiptData } from '../services/types';
import './receipt.css';

// Moscow time, whatever the payer's zone: the merchant's and the bank's documents say the same (and the page says so).
const timeFormat = new Intl.DateTimeFormat('ru-RU', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Moscow' });

/** "15 января 2026 г. в 12:00 МСК". */
export const formatReceiptTime = (iso: string) => `${timeFormat.format(new Date(iso))} ${t.moscowTime}`;

const dayFormat = new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/Moscow' });

/** "02.12.2026", the day in Moscow. */
export const formatReceiptDay = (iso: string) => dayFormat.format(new Date(iso));

/** A link the merchant gave, only if it is a web address (never `javascript:` from data). */
export const webLink = (url: string | null | undefined): string | null => (url && /^https?:\/\//i.test(url) ? url : null);

const quantityFormat = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 3 });

/** One line of what was bought: its name, quantity × price and VAT, its amount on the right. */
function Line({ name, detail, amount }: { name: string; detail?: string; amount: string }) {
  return (
    <li className="receipt-line">
      <span className="receipt-line-name">
        {name}
        {detail ? <span className="receipt-line-detail">{detail}</span> : null}
      </span>
      <span className="receipt-line-amount">{amount}</span>
    </li>
  );
}

/** The bill's positions at full price, the fee, and the points as the discount that lowers them. */
function Positions({ receipt }: { receipt: ReceiptData }) {
  return (
    <ul className="receipt-lines" aria-label={t.positions}>
      {receipt.items.map((item, i) => (
        <Line
          key={i}
          name={item.name}
          detail={`${t.quantityTimesPrice(quantityFormat.format(item.quantity), formatMoney(item.price))} · ${t.vat[item.vat] ?? item.vat}`}
          amount={formatMoney(item.amount)}
        />
      ))}
      {receipt.fee > 0 ? <Line name={t.fee} amount={formatMoney(receipt.fee)} /> : null}
      {receipt.pointsUsed > 0 ? <Line name={t.pointsDiscount} amount={`−${formatMoney(receipt.pointsUsed)}`} /> : null}
    </ul>
  );
}

/** A long order number: its start, which support recognises, and a button that copies the whole of it. */
function OrderNumber({ orderId }: { orderId: string }) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'cannot'>('no');
  const short = orderId.length > 12 ? orderId.slice(0, 8) : orderId;
  if (short === orderId) return <>{orderId}</>;
  // Where the browser refuses the clipboard, the whole number is shown instead, to be selected by hand.
  const copy = () =>
    navigator.clipboard?.writeText(orderId).then(
      () => setCopied('yes'),
      () => setCopied('cannot'),
    ) ?? setCopied('cannot');
  return (
    <span className="receipt-order">
      <span>{copied === 'cannot' ? orderId : `${short}…`}</span>
      {copied !== 'cannot' && (
        <button type="button" className="link receipt-copy" onClick={copy}>
          {t.copyOrder}
        </button>
      )}
      {/* A live region (not a status: the page's status is the payment's), told when the copy is made. */}
      <span className="visually-hidden" aria-live="polite">
        {copied === 'yes' ? t.orderCopied : ''}
      </span>
    </span>
  );
}

/**
 * The receipt of a payment, every fact from the server's records but the merchant (the page's own
 * configuration): what was paid and how (the fee on its own line, the card as the bank masked it), for what, to whom,
 * when, and where the receipt e-mail went.
 */
export function Receipt({ receipt, merchant }: { receipt: ReceiptData; merchant: Merchant }) {
  const refund = receipt.refund;
  const rows: [string, ReactNode][] = [
    // Given back whole, the payment is no longer 'Оплачено': its amount, then what went back and when.
    [refund?.whole ? t.paymentAmount : t.amount, formatMoney(receipt.amount)],
    ...(refund ? [[t.refunded, t.refundedWhen(formatMoney(refund.amount), formatReceiptTime(refund.at))] as [string, string]] : []),
    // Given back in part: what the payment now comes to, so the payer need not work it out.
    ...(refund && !refund.whole ? [[t.netAmount, formatMoney(roublesOf(kopecksOf(receipt.amount) - kopecksOf(refund.amount)))] as [string, string]] : []),
    // The fee on its own line: in the positions when there are any, else here, under what was paid.
    ...(receipt.fee > 0 && receipt.items.length === 0 ? [[t.fee, formatMoney(receipt.fee)] as [string, string]] : []),
    ...(receipt.pointsUsed > 0 ? [[t.points, formatPoints(receipt.pointsUsed)] as [string, string]] : []),
    [t.purpose, receipt.purpose],
    ...(merchant.name ? [[t.merchant, merchant.name] as [string, string]] : []),
    [t.order, <OrderNumber key="order" orderId={receipt.orderId} />],
    [t.at, formatReceiptTime(receipt.at)],
    [t.method, receipt.method?.name ?? t.methodPoints],
    ...(receipt.card ? [[t.card, receipt.card] as [string, string]] : []),
    ...(receipt.email ? [[t.email, receipt.email] as [string, string]] : []),
  ];
  return (
    <section className="receipt" aria-labelledby="receipt-title">
      <h2 id="receipt-title" className="receipt-title">
        {t.receiptTitle}
      </h2>
      {receipt.items.length > 0 ? <Positions receipt={receipt} /> : null}
      <dl className="receipt-rows">
        {rows.map(([label, value]) => (
          <div className="receipt-row" key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {receipt.fiscal && receipt.email ? <p className="receipt-fiscal">{t.fiscalNote}</p> : null}
      {receipt.handover ? <p className="receipt-fiscal">{t.handedOver(formatReceiptDay(receipt.handover.at), receipt.handover.sentTo)}</p> : null}
    </section>
  );
}
