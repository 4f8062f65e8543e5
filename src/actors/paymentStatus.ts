import { fromCallback, fromPromise } from 'xstate';
import { paymentStatusMachine } from '../machines/paymentStatus';
import { logWith, type Dependencies } from './dependencies';

/** Payment-status polling with its real effects: the getResult call, the tab's visibility and the connection. */
export function definePaymentStatusActor({ api, log, doc, first }: Pick<Dependencies, 'api' | 'log' | 'doc' | 'first'>) {
  return paymentStatusMachine.provide({
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
