import { fromPromise } from 'xstate';
import { signInMachine } from '../machines/signIn';
import { answerOf } from '../services/accountAnswer';
import { logErrorOf, type Dependencies } from './dependencies';

/**
 * The sign-in form of the account step with its real effect, the provider login; a refusal becomes the answer the flow
 * reads (show_captcha), see accountAnswer.ts. Apart from the other account flows (accountFlows.ts): the account step
 * runs it from the start for a payer not signed in yet, the others come on demand.
 */
export function defineSignInActor({ api, log }: Pick<Dependencies, 'api' | 'log'>) {
  return signInMachine.provide({
    actors: { login: fromPromise(({ input }) => answerOf(api.login(input.phone, input.password, input.captcha))) },
    actions: { 'log error': logErrorOf({ log }) },
  });
}
