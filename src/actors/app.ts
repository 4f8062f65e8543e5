import { fromPromise } from 'xstate';
import { appMachine } from '../machines/app';
import type { Api } from '../services/api';
import { messages } from '../services/messages';
import type { LoyaltyUser } from '../services/types';
import { defineCheckoutActor } from './checkout';
import { logWith, type Dependencies } from './dependencies';

/** Loads the signed-in loyalty user: the provider's checkUser gives a token, get-user the user; null for a guest. */
async function loadUser(api: Api): Promise<LoyaltyUser | null> {
  const check = await api.checkUser();
  const token = check.success ? check.json?.token : undefined;
  if (!token) return null;
  const answer = await api.getUser(token);
  return answer.success && answer.user ? answer.user : null;
}

/** The page's root actor with its real effects: the bill and the user loaded, the checkout with all of its own. */
export function defineAppActor(deps: Dependencies) {
  const { api, analytics, log, doc } = deps;
  return appMachine.provide({
    actors: {
      loadBill: fromPromise(({ input }) => api.objectInfo(input.objectOID, input.retry ?? null)),
      loadUser: fromPromise(() => loadUser(api)),
      logout: fromPromise(() => api.logout()),
      checkout: defineCheckoutActor(deps),
    },
    actions: {
      'show data error title': () => {
        doc.title = messages.app.dataErrorTitle;
      },
      'track sign-in': (_, { user }) => analytics({ event: 'login', userOid: user?.oid ?? null }),
      'log error': logWith(log),
    },
  });
}
