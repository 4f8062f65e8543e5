import { useActorRef } from '@xstate/react';
import type { paymentStatusMachine } from '../machines/paymentStatus';
import { messages } from '../services/messages';
import { SuccessIcon } from './icons';
import { PageHeader } from './PageHeader';
import { StatusBlock } from './StatusBlock';

interface Props {
  logic: typeof paymentStatusMachine;
  orderId: string | null;
  billOid: string | null;
  /** /success?withoutProcessing=1: the bill was closed by points, no acquirer involved (DESIGN §6). */
  withoutProcessing?: boolean;
}

/**
 * The result view mounted on /success, /fail or any element with id "result" (SPEC §2): it polls the status of
 * orderId for billOid; without an order there is nothing to poll and the page says so.
 */
export function ResultPage({ logic, orderId, billOid, withoutProcessing = false }: Props) {
  return (
    <div className="page">
      <PageHeader />
      <main className="card result-card" id="main">
        <h1 className="step-title">{messages.status.resultTitle}</h1>
        {orderId && billOid ? (
          <PolledStatus logic={logic} orderId={orderId} billOid={billOid} />
        ) : withoutProcessing ? (
          // Nothing to poll: the server closed the bill itself when the points covered it.
          <div className="status-block status-success">
            <div className="status-icon">
              <SuccessIcon />
            </div>
            <p className="status-text" role="status">
              {messages.status.success}
            </p>
          </div>
        ) : (
          <p className="status-text" role="status">
            {messages.status.orderNotFound}
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
