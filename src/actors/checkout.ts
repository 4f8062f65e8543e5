import { fromPromise } from 'xstate';
import { checkoutMachine } from '../machines/checkout';
import { draftOf } from '../machines/checkoutContext';
import { chunkOf, logicOnDemand, preloadOnDemand } from '../machines/onDemand';
import { saveCheckoutDraft } from '../services/checkoutDraft';
import { messages } from '../services/messages';
import { forgetCodeDraft, saveCodeDraft } from '../services/codeDraft';
import type { Dependencies } from './dependencies';
import type { LaterActors } from './laterActors';
import type { defineSignInActor } from './signIn';

/**
 * The receipt e-mail checked by the server: resolves with it when accepted. The step it leads to runs children no first
 * step does (the offer, paying): their code comes meanwhile (machines/onDemand.ts).
 */
export function defineCheckEmailActor({ api }: Pick<Dependencies, 'api'>) {
  return fromPromise<string, { email: string }>(async ({ input }) => {
    const [answer] = await Promise.all([api.checkEmail(input.email), preloadOnDemand()]);
    if (!answer.success) throw new Error(messages.internal.badEmail);
    return input.email;
  });
}

/*
 * The checkout's children that no first step runs, and the reg route's sign-in form: chunks of their own
 * (machines/onDemand.ts), loaded when something can lead to them.
 */
const laterChunk = chunkOf('later', () => import('./laterActors'));
const signInChunk = chunkOf('signIn', () => import('./signIn'));

/**
 * The checkout with the effects of every step: each feature's actors, this tab's storage for its drafts, and after a
 * reload on a step, resuming it.
 */
export function defineCheckoutActor(deps: Dependencies) {
  const { env, resume } = deps;
  // Made once per checkout, when first asked for (their chunk is here by then).
  let later: LaterActors | null = null;
  let signIn: ReturnType<typeof defineSignInActor> | null = null;
  const onDemand = <Name extends keyof LaterActors>(name: Name) =>
    logicOnDemand(name, laterChunk, ({ defineLaterActors }) => (later ??= defineLaterActors(deps))[name]);
  return checkoutMachine.provide({
    actors: {
      checkEmail: defineCheckEmailActor(deps),
      // The reg route's sign-in form: its guests run it from the start, and nobody else needs it.
      signIn: logicOnDemand('signIn', signInChunk, ({ defineSignInActor }) => (signIn ??= defineSignInActor(deps))),
      offer: onDemand('offer'),
      payment: onDemand('payment'),
      paymentStatus: onDemand('paymentStatus'),
      freeCall: onDemand('freeCall'),
      pointsCode: onDemand('pointsCode'),
      passwordCode: onDemand('passwordCode'),
      registrationCode: onDemand('registrationCode'),
    },
    actions: {
      'save code draft': (_, { objectOID, request }) => saveCodeDraft(env.tabStorage, objectOID, request),
      'forget code draft': () => forgetCodeDraft(env.tabStorage),
      'keep draft': ({ context }) => saveCheckoutDraft(env.tabStorage, context.bill.objectOID, draftOf(context)),
      ...resume?.actions,
    },
    ...(resume ? { guards: resume.guards } : {}),
  });
}
