import { fromPromise } from 'xstate';
import { offerMachine } from '../machines/offer';
import { logWith, type Dependencies } from './dependencies';

/**
 * The offer modal of the choose-payment-type step: its text from the server. Apart from paying's actors (payment.ts):
 * the step runs it on entry, right after the first step's Continue, while paying's come on demand.
 */
export function defineOfferActor({ api, log }: Pick<Dependencies, 'api' | 'log'>) {
  return offerMachine.provide({
    actors: {
      fetchOffer: fromPromise(async ({ input }) => (await api.offerText(input.kind, input.objectOID, input.cardTypeOID)).OfferDescription ?? ''),
    },
    actions: { 'log error': logWith(log) },
  });
}
