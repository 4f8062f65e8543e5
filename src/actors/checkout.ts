import { fromPromise } from 'xstate';
import { checkoutMachine } from '../machines/checkout';
import { draftOf } from '../machines/checkoutContext';
import { saveCheckoutDraft } from '../services/checkoutDraft';
import { messages } from '../services/messages';
import { forgetCodeDraft, saveCodeDraft } from '../services/codeDraft';
import type { defineLoadCode } from './code';
import type { Dependencies } from './dependencies';

/** The receipt e-mail checked by the server: resolves with it when accepted. */
export function defineCheckEmailActor({ api }: Pick<Dependencies, 'api'>) {
  return fromPromise<string, { email: string }>(async ({ input }) => {
    const answer = await api.checkEmail(input.email);
    if (!answer.success) throw new Error(messages.internal.badEmail);
    return input.email;
  });
}

/**
 * The checkout with the effects of every step: the e-mail check, its chunks of code with their children's effects
 * (`loadCode`), this tab's storage for its drafts, and after a reload on a step, resuming it.
 */
export function defineCheckoutActor(deps: Dependencies, loadCode: ReturnType<typeof defineLoadCode>) {
  const { env, resume } = deps;
  return checkoutMachine.provide({
    actors: { checkEmail: defineCheckEmailActor(deps), loadCode },
    actions: {
      'save code draft': (_, { objectOID, request }) => saveCodeDraft(env.tabStorage, objectOID, request),
      'forget code draft': () => forgetCodeDraft(env.tabStorage),
      'keep draft': ({ context }) => saveCheckoutDraft(env.tabStorage, context.bill.objectOID, draftOf(context)),
      ...resume?.actions,
    },
    ...(resume ? { guards: resume.guards } : {}),
  });
}
