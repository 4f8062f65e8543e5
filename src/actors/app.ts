import { fromPromise } from 'xstate';
import { appMachine } from '../machines/app';
import type { Api } from '../services/api';
import { errorTitleOf } from '../services/messages';
import type { LoyaltyUser } from '../services/types';
import { defineCheckoutActor } from './checkout';
import { defineLoadCode, madeOnce } from './code';
import { logErrorOf, type Dependencies } from './dependencies';

/** Loads the signed-in loyalty user: the provider's checkUser gives a token, get-user the user; null for a guest. */
async function loadUser(api: Api): Promise<LoyaltyUser | null> {
  const check = await api.checkUser();
  const token = check.success ? check.json?.token : undefined;
  if (!token) return null;
  const answer = await api.getUser(token);
  return answer.success && answer.user ? answer.user : null;
}

/**
 * The page's root actor with its real effects: the bill and the user loaded, the chunks of code with their children's
 * effects (made once each), the checkout with all of its own.
 */
export function defineAppActor(deps: Dependencies) {
  const { api, analytics, log, doc, first } = deps;
  const loadCode = defineLoadCode(
    deps.code,
    madeOnce((_, module) => module.defineChildren(deps)),
  );
  return appMachine.provide({
    actors: {
      // The page's first load of each answers with what the server put into the page; a refresh asks the server.
      loadBill: fromPromise(({ input }) => first?.bill() ?? api.objectInfo(input.billLink, input.retry ?? null)),
      loadUser: fromPromise(() => first?.user() ?? loadUser(api)),
      logout: fromPromise(() => api.logout()),
      loadCode,
      checkout: defineCheckoutActor(deps, loadCode),
    },
    actions: {
      'show data error title': ({ context }) => {
        doc.title = errorTitleOf(context.closedAs);
      },
      'track sign-in': (_, { user }) => analytics({ event: 'login', userOid: user?.oid ?? null }),
      // A refusal that is no fault (a closed bill) comes with no error: nothing to log.
      'log error': logErrorOf({ log }),
    },
  });
}
