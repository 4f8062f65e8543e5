import { fromCallback, fromPromise } from 'xstate';
import { bankWidgetMachine } from '../machines/bankWidget';
import { paymentMachine } from '../machines/payment';
import { logErrorOf, logWith, type Dependencies } from './dependencies';

/** The bank-app pay widget with the page's widget client (src/widget); without a client its actors fail loudly. */
export function defineBankWidgetActor({ env, log, widget }: Pick<Dependencies, 'env' | 'log' | 'widget'>) {
  if (!widget) return bankWidgetMachine;
  return bankWidgetMachine.provide({
    actors: {
      widget: fromCallback(({ input, sendBack }) => widget.open({ ...input, isSafariDesktop: env.isSafariDesktop }, sendBack)),
    },
    actions: {
      'redirect to widget': (_, input) => widget.redirect({ ...input, isSafariDesktop: false }),
      'open helper tab': (_, input) => widget.openHelperTab(input.code),
      'go to return url': (_, { outcome, ...ids }) => env.navigate(widget.returnUrl(ids, outcome)),
      'log error': logWith(log),
    },
    guards: { 'is Safari desktop': () => env.isSafariDesktop },
  });
}

/** Paying: the payment request, the browser sent on, and the bank-app pay widget. */
export function definePaymentActor(deps: Pick<Dependencies, 'api' | 'env' | 'log' | 'widget'>) {
  const { api, env, log } = deps;
  return paymentMachine.provide({
    actors: {
      requestPaymentUrl: fromPromise(({ input }) => api.getPaymentUrl(input)),
      bankWidget: defineBankWidgetActor(deps),
    },
    actions: {
      'go to url': (_, { url }) => env.navigate(url),
      // A refusal that is no fault (an expired bill) comes with no error: nothing to log.
      'log error': logErrorOf({ log }),
    },
  });
}
