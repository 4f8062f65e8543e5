import { fromCallback, fromPromise } from 'xstate';
import { paymentStatusMachine, SLOW_POLL_MS } from '../machines/paymentStatus';
import { readPageConfig } from '../services/pageConfig';
import { logWith, type Dependencies } from './dependencies';

/**
 * Payment-status polling with its real effects: the getResult call, the tab's visibility and the connection; at the
 * pace the page's configuration sets, if it sets one (the slow pace after two minutes, or for a hold, stays).
 */
export function definePaymentStatusActor({ api, log, doc, first }: Pick<Dependencies, 'api' | 'log' | 'doc' | 'first'>) {
  const pollMs = readPageConfig(doc).pollMs;
  return paymentStatusMachine.provide({
    ...(pollMs ? { delays: { 'status poll interval': ({ context }) => (context.slow || context.hold ? SLOW_POLL_MS : pollMs) } } : {}),
    actors: {
      // A result page's first poll answers with the status the server put into the page.
      fetchStatus: fromPromise(({ input }) => first?.status() ?? api.getResult(input.transactionID, input.billOID)),
      watchVisibility: fromCallback(({ sendBack }) => {
        const onChange = () => sendBack({ type: doc.visibilityState === 'hidden' ? 'visibility.hidden' : 'visibility.visible' });
        doc.addEventListener('visibilitychange', onChange);
        onChange();
        return () => doc.removeEventListener('visibilitychange', onChange);
      }),
      watchConnection: fromCallback(({ sendBack }) => {
        const win = doc.defaultView;
        if (!win) return undefined;
        const offline = () => sendBack({ type: 'connection.offline' });
        const online = () => sendBack({ type: 'connection.online' });
        win.addEventListener('offline', offline);
        win.addEventListener('online', online);
        if (win.navigator.onLine === false) offline();
        return () => {
          win.removeEventListener('offline', offline);
          win.removeEventListener('online', online);
        };
      }),
    },
    actions: { 'log poll failure': logWith(log) },
  });
}
