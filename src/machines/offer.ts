import { assign, setup } from 'xstate';
import type { OfferKind } from '../services/types';
import { errorOf, logErrorStub, promiseStub } from './stub';

export interface OfferInput {
  objectOID: string;
}

export interface OfferRequest {
  kind: OfferKind;
  objectOID: string;
  cardTypeOID: string;
}

export interface OfferContext extends OfferInput {
  kind: OfferKind | null;
  cardTypeOID: string | null;
  /** The offer's text as the server sends it (HTML). */
  text: string | null;
}

export type OfferEvent = { type: 'offer.open'; kind: OfferKind; cardTypeOID: string } | { type: 'offer.close' };

/**
 * The offer modal of the choose-payment-type step: opening an agreement's link fetches the offer
 * text from /api/offerText/ and shows it, or shows 'Не удалось получить информацию об оферте'.
 */
export const offerMachine = setup({
  types: {
    input: {} as OfferInput,
    context: {} as OfferContext,
    events: {} as OfferEvent,
    tags: {} as 'open' | 'loading' | 'shown' | 'failed',
  },
  actors: {
    /** Resolves with OfferDescription; rejects when the server has none. */
    fetchOffer: promiseStub<string, OfferRequest>('fetchOffer'),
  },
  actions: {
    'log error': logErrorStub,
  },
  guards: {
    'is offer empty': (_, params: { text: string }) => !params.text,
  },
}).createMachine({
  id: 'offer',
  context: ({ input }) => ({ ...input, kind: null, cardTypeOID: null, text: null }),
  initial: 'hidden',
  states: {
    hidden: {
      on: {
        'offer.open': {
          target: 'loading',
          actions: assign({ kind: ({ event }) => event.kind, cardTypeOID: ({ event }) => event.cardTypeOID, text: null }),
        },
      },
    },
    loading: {
      tags: ['open', 'loading'],
      invoke: {
        src: 'fetchOffer',
        input: ({ context }) => ({ kind: context.kind!, objectOID: context.objectOID, cardTypeOID: context.cardTypeOID! }),
        onDone: [
          { guard: { type: 'is offer empty', params: ({ event }) => ({ text: event.output }) }, target: 'failed' },
          { target: 'shown', actions: assign({ text: ({ event }) => event.output }) },
        ],
        onError: { target: 'failed', actions: { type: 'log error', params: errorOf } },
      },
    },
    shown: { tags: ['open', 'shown'] },
    failed: { tags: ['open', 'failed'] },
  },
  on: {
    'offer.close': { target: '.hidden' },
  },
});
