import { StrictMode } from 'react';
import type { PageConfig } from '../services/pageConfig';
import { ResultPage } from './ResultPage';
import type { PaymentStatusActor } from './StatusBlock';

export interface ResultQuery {
  orderId: string | null;
  billOid: string | null;
  /** The bank's widget sent the payer back (`state=return`). */
  cancelled: boolean;
}

/**
 * The result page's tree, the same on the server (src/serverRender.tsx) and in the browser (src/mountResult.tsx), so
 * that the markup the server renders is what the page's first render hydrates. `status`: the polling, running already;
 * none without an order to poll.
 */
export function ResultPageRoot({ status, query, config, onReload }: { status: PaymentStatusActor | null; query: ResultQuery; config: PageConfig; onReload?: () => void }) {
  return (
    <StrictMode>
      <ResultPage
        {...(status ? { actor: status } : {})}
        orderId={query.orderId}
        billOid={query.billOid}
        cancelled={query.cancelled}
        merchant={config.merchant}
        returnUrl={config.returnUrl}
        {...(onReload ? { onReload } : {})}
      />
    </StrictMode>
  );
}
