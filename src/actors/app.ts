import { fromPromise } from 'xstate';
import { appMachine } from '../machines/app';
import { preloadOnDemand } from '../machines/onDemand';
import type { Api } from '../services/api';
import { messages } from '../services/messages';
import type { Bill, LoyaltyUser } from '../services/types';
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

/**
 * The code the checkout's first step runs beyond the first scripts (machines/onDemand.ts), loaded with the bill: the reg
 * route's sign-in form; for a retry, which opens on the way to pay, everything after the first step.
 */
const firstStepCode = (bill: Bill) => (bill.retry ? preloadOnDemand() : bill.noReg ? Promise.resolve() : preloadOnDemand(['signIn']));

/** The bill's data, and the code its first step runs. */
async function withFirstStepCode(loading: Promise<Bill>): Promise<Bill> {
  const bill = await loading;
  await firstStepCode(bill);
  return bill;
}

/** The page's root actor with its real effects: the bill and the user loaded, the checkout with all of its own. */
export function defineAppActor(deps: Dependencies) {
  const { api, analytics, log, doc, first } = deps;
  return appMachine.provide({
    actors: {
      // The page's first load of each answers with what the server put into the page; a refresh asks the server.
      loadBill: fromPromise(({ input }) => withFirstStepCode(first?.bill() ?? api.objectInfo(input.objectOID, input.retry ?? null))),
      loadUser: fromPromise(() => first?.user() ?? loadUser(api)),
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
