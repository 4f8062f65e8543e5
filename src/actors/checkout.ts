import { fromPromise } from 'xstate';
import { checkoutMachine } from '../machines/checkout';
import { messages } from '../services/messages';
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
 * (`loadCode`), and after a reload on a step, resuming it. (This tab's draft is the composition root's: keepDraft.ts.)
 */
export function defineCheckoutActor(deps: Dependencies, loadCode: ReturnType<typeof defineLoadCode>) {
  const { resume } = deps;
  return checkoutMachine.provide({
    actors: { checkEmail: defineCheckEmailActor(deps), loadCode },
    ...(resume ? { actions: resume.actions, guards: resume.guards } : {}),
  });
}
