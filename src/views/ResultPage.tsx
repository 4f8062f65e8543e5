import { useActorRef } from '@xstate/react';
import type { paymentStatusMachine } from '../machines/paymentStatus';
import type { Merchant } from '../services/pageConfig';
import { messages } from '../services/messages';
import { PageHeader } from './PageHeader';
import { StatusBlock } from './StatusBlock';

interface Props {
  logic: typeof paymentStatusMachine;
  orderId: string | null;
  billOid: string | null;
  merchant: Merchant;
  /** The bill's link back to the merchant's shop (issue 14), shown under the status; null: none. */
  returnUrl?: string | null;
}

/**
 * The result view mounted on /success, /fail or any element with id "result" (SPEC §2): it polls the status of
 * orderId for billOid; without an order there is nothing to poll and the page says so. A bill closed by points
 * (/success?withoutProcessing=1) is no exception: its order is asked about too, because the address alone proves
 * nothing (anyone can type it).
 */
export function ResultPage({ logic, orderId, billOid, merchant, returnUrl = null }: Props) {
  return (
    <div className="page">
      <PageHeader merchant={merchant} />
      <main className="card result-card" id="main">
        <h1 className="step-title">{messages.status.resultTitle}</h1>
        {orderId && billOid ? (
          <PolledStatus logic={logic} orderId={orderId} billOid={billOid} />
        ) : (
          <p className="status-text" role="status">
            {messages.status.orderNotFound}
          </p>
        )}
        {returnUrl && (
          <p className="result-return">
            <a href={returnUrl}>{messages.status.backToShop}</a>
          </p>
        )}
      </main>
    </div>
  );
}

function PolledStatus({ logic, orderId, billOid }: { logic: typeof paymentStatusMachine; orderId: string; billOid: string }) {
  const actor = useActorRef(logic, { input: { transactionID: orderId, billOID: billOid } });
  return <StatusBlock actor={actor} />;
}
