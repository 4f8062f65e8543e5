import { createActor, type ActorRefFrom } from 'xstate';
import { firstAnswerIn, type paymentStatusMachine } from './machines/paymentStatus';
import { definePaymentStatusActor } from './actors/paymentStatus';
import type { Dependencies } from './actors/dependencies';
import { settled, show } from './mount';
import type { InitialData } from './services/initialData';
import type { PageConfig } from './services/pageConfig';
import { ResultPageRoot } from './views/ResultPageRoot';
import { resultView } from './views/shownView';
import { outcomeOf } from './views/StatusBlock';

/**
 * The result page (`/success`, `/fail`, or any element with id "result"), with orderId and billOid from the query: a
 * chunk of its own, so the checkout's first load does not carry it. Polling starts before the first render: its first
 * answer is the one the page carries, so the first render shows the status the server rendered.
 */
export async function mountResult(element: HTMLElement, deps: Dependencies, config: PageConfig, { rendered, status: carried }: InitialData) {
  const query = new URLSearchParams(window.location.search);
  const orderId = query.get('orderId');
  const billOid = query.get('billOid');
  const cancelled = query.get('state') === 'return';
  const status =
    orderId && billOid ? createActor(definePaymentStatusActor(deps), { input: { transactionID: orderId, billOID: billOid, firstAnswerCarried: !!carried } }).start() : null;
  if (status) nameOrderAsReceipt(status);
  // The carried answer is rendered as the server rendered it; the page's own first read, asked at once, may follow.
  if (status && carried) await settled(status, (state) => firstAnswerIn(state.context));
  const view = resultView(status ? outcomeOf(status.getSnapshot(), { cancelled }) : null);
  show(
    element,
    <ResultPageRoot status={status} query={{ orderId, billOid, cancelled }} config={config} onReload={() => window.location.reload()} />,
    // Only a status the page carries is hydrated: a poll still on its way could change it half-way through.
    (!status || !!carried) && rendered === view,
    status,
  );
}

/**
 * The bank sends the payer back with its own id of the order in the address; the receipt names the order by ours (the
 * one the merchant and the bank's `orderNumber` know). Once the receipt is here, the address names the order as the
 * receipt does, so the payer has one number to quote to support (and a reload or a shared link still finds the order).
 */
function nameOrderAsReceipt(status: ActorRefFrom<typeof paymentStatusMachine>) {
  const rename = (named: string) => {
    const url = new URL(window.location.href);
    if (url.searchParams.get('orderId') === named) return;
    url.searchParams.set('orderId', named);
    window.history.replaceState(window.history.state, '', url);
  };
  const now = status.getSnapshot().context.receipt?.orderId;
  if (now) return rename(now);
  const subscription = status.subscribe((state) => {
    const named = state.context.receipt?.orderId;
    if (!named) return;
    subscription.unsubscribe();
    rename(named);
  });
}
