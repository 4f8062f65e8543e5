import { useActorRef } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { paymentStatusMachine } from '../machines/paymentStatus';
import type { Merchant } from '../services/pageConfig';
import type { PaymentTypeCode } from '../services/rules/paymentKinds';
import { stepMessages } from '../services/stepMessages';
import { PageHeader } from './PageHeader';
import { PaymentEnd } from './PaymentEnd';
import type { PaymentStatusActor } from './StatusBlock';

interface Props {
  /**
   * The status polling, running already: the page starts it before it renders (main.tsx), so that a page the server
   * rendered hydrates with the status the server showed.
   */
  actor?: PaymentStatusActor;
  /** Or the polling's logic, for a view that starts its own (tests). */
  logic?: typeof paymentStatusMachine;
  orderId: string | null;
  billOid: string | null;
  /** The bank's widget sent the payer back (`state=return`): nothing paid unless the server says otherwise. */
  cancelled?: boolean;
  merchant: Merchant;
  /** 'Обновить страницу' while the bank is slow; main.tsx gives the browser's reload. */
  onReload?: () => void;
  /** The bill's link back to the merchant's shop, shown after a success; null: none. */
  returnUrl?: string | null;
}

/**
 * The result view mounted on /success, /fail or any element with id "result": it polls the status of
 * orderId for billOid; without an order there is nothing to poll and the page says so. A bill closed by points
 * (/success?withoutProcessing=1) is no exception: its order is asked about too, because the address alone proves
 * nothing (anyone can type it). The receipt is the server's answer, never the address's.
 */
export function ResultPage({ actor, logic, orderId, billOid, cancelled = false, merchant, returnUrl = null, onReload = () => undefined }: Props) {
  // Back from the bank on a page of its own: a screen reader starts at its heading.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="page">
      <PageHeader merchant={merchant} />
      <main className="card result-card" id="main">
        <h1 className="step-title" tabIndex={-1} ref={heading}>
          {stepMessages.status.resultTitle}
        </h1>
        {orderId && billOid && actor ? (
          <PaymentEnd actor={actor} merchant={merchant} returnUrl={returnUrl} retry={retryOf(billOid, orderId)} cancelled={cancelled} onReload={onReload} billHref={billHref(billOid)} />
        ) : orderId && billOid && logic ? (
          <PolledStatus logic={logic} orderId={orderId} billOid={billOid} cancelled={cancelled} merchant={merchant} returnUrl={returnUrl} onReload={onReload} />
        ) : (
          <p className="status-text" role="status">
            {stepMessages.status.orderNotFound}
          </p>
        )}
      </main>
    </div>
  );
}

/**
 * Back to the bill, which opens with the declined order's way to pay and e-mail kept (the server looks them up), or with
 * another way to pay chosen instead (`via`, its code).
 */
/** The bill's own link, where its payer pays (and pays the next part of a bill paid in parts). */
export const billHref = (billOid: string) => `/pay/${encodeURIComponent(billOid)}`;

export const retryHref = (billOid: string, orderId: string, via?: PaymentTypeCode) =>
  `/pay/${encodeURIComponent(billOid)}?retry=${encodeURIComponent(orderId)}${via ? `&via=${via}` : ''}`;

/** 'Попробовать снова' back to the bill, and the other way forward: fast payment instead. */
const retryOf = (billOid: string, orderId: string) => ({ href: retryHref(billOid, orderId), fastPaymentHref: retryHref(billOid, orderId, 'SBP') });

function PolledStatus({
  logic,
  orderId,
  billOid,
  cancelled,
  merchant,
  returnUrl,
  onReload,
}: Omit<Props, 'orderId' | 'billOid' | 'actor' | 'logic'> & Required<Pick<Props, 'cancelled' | 'onReload' | 'logic'>> & { orderId: string; billOid: string }) {
  const actor = useActorRef(logic, { input: { transactionID: orderId, billOID: billOid } });
  return <PaymentEnd actor={actor} merchant={merchant} returnUrl={returnUrl} retry={retryOf(billOid, orderId)} cancelled={cancelled} onReload={onReload} billHref={billHref(billOid)} />;
}
