import { fromCallback, fromPromise } from 'xstate';
import { appMachine } from './machines/app';
import { checkoutMachine } from './machines/checkout';
import { paymentStatusMachine } from './machines/paymentStatus';
import type { Api } from './services/api';
import type { Analytics, BrowserEnvironment } from './services/environment';
import { messages } from './services/messages';
import type { LoyaltyUser } from './services/types';

export interface Dependencies {
  api: Api;
  env: BrowserEnvironment;
  analytics: Analytics;
  log: (error: unknown) => void;
  /** The document whose visibility pauses status polling and whose title shows the data error. */
  doc: Document;
}

/** Loads the signed-in loyalty user: the provider's checkUser gives a token, get-user the user; null for a guest. */
async function loadUser(api: Api): Promise<LoyaltyUser | null> {
  const check = await api.checkUser();
  const token = check.success ? check.json?.token : undefined;
  if (!token) return null;
  const answer = await api.getUser(token);
  return answer.success && answer.user ? answer.user : null;
}

/** Payment-status polling with its real effects: the getResult call and the tab's visibility. */
export function providePaymentStatus({ api, log, doc }: Dependencies) {
  return paymentStatusMachine.provide({
    actors: {
      fetchStatus: fromPromise(({ input }) => api.getResult(input.transactionID, input.billOID)),
      watchVisibility: fromCallback(({ sendBack }) => {
        const onChange = () => sendBack({ type: doc.visibilityState === 'hidden' ? 'visibility.hidden' : 'visibility.visible' });
        doc.addEventListener('visibilitychange', onChange);
        onChange();
        return () => doc.removeEventListener('visibilitychange', onChange);
      }),
    },
    actions: { 'log poll failure': (_, { error }) => log(error) },
  });
}

/**
 * The composition root's one job: give every machine its real effects (DESIGN §4). Tests call this with msw
 * behind the API and a fake environment, so the page they drive is wired exactly as in production.
 */
export function provideApp(deps: Dependencies) {
  const { api, env, analytics, log, doc } = deps;
  const checkout = checkoutMachine.provide({
    actors: {
      checkEmail: fromPromise(async ({ input }) => {
        const answer = await api.checkEmail(input.email);
        if (!answer.success) throw new Error('Неверный email');
        return input.email;
      }),
      requestPaymentUrl: fromPromise(({ input }) => api.getPaymentUrl(input)),
      paymentStatus: providePaymentStatus(deps),
    },
    actions: {
      'go to url': (_, { url }) => env.navigate(url),
      'log error': (_, { error }) => log(error),
    },
  });

  return appMachine.provide({
    actors: {
      loadBill: fromPromise(({ input }) => api.objectInfo(input.objectOID)),
      loadUser: fromPromise(() => loadUser(api)),
      logout: fromPromise(() => api.logout()),
      checkout,
    },
    actions: {
      'show data error title': () => {
        doc.title = messages.app.dataErrorTitle;
      },
      'track sign-in': (_, { user }) => analytics({ event: 'login', userOid: user?.oid ?? null }),
      'log error': (_, { error }) => log(error),
    },
  });
}
