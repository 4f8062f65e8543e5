import { fromPromise } from 'xstate';
import { codeFlowMachine, nothingToFinish, type FinishInput } from '../machines/codeFlow';
import type { CodeFlowName } from '../machines/codePurposeSteps';
import { freeCallMachine } from '../machines/freeCall';
import { answerOf, type AccountAnswer } from '../services/accountAnswer';
import { logErrorOf, type Dependencies } from './dependencies';

/*
 * The account flows with their real effects: SMS codes and what each purpose's right code unlocks, and the free-call
 * line (the sign-in form's are signIn.ts). Refusals become answers the flows read (show_captcha, secondsLeft); see
 * accountAnswer.ts.
 */

/**
 * The send-code flow of every code purpose, under the names the checkout spawns them by (codePurposeSteps.ts), each
 * with what its right code unlocks on the server: nothing for points (the checkout applies them), the new password
 * sent by SMS, the registration.
 */
export function defineCodeFlowActors({ api, log }: Pick<Dependencies, 'api' | 'log'>): Record<CodeFlowName, typeof codeFlowMachine> {
  const codeFlow = codeFlowMachine.provide({
    actors: {
      sendCode: fromPromise(({ input }) => answerOf(api.sendCode({ ...input, captchaVerified: input.captcha !== null }))),
      checkCode: fromPromise(({ input }) => answerOf(api.checkCode(input))),
    },
    actions: { 'log error': logErrorOf({ log }) },
  });
  const finishing = (finish: (input: FinishInput) => Promise<unknown>) =>
    codeFlow.provide({ actors: { finish: fromPromise<AccountAnswer, FinishInput>(({ input }) => answerOf(finish(input))) } });
  return {
    pointsCode: codeFlow.provide({ actors: { finish: nothingToFinish } }),
    passwordCode: finishing(({ request, captcha }) => api.restorePassword(request.phone, captcha)),
    registrationCode: finishing(({ request, captcha }) =>
      request.purpose === 'register' ? api.register(request.form, captcha) : Promise.reject(new Error(`not a registration: ${request.purpose}`)),
    ),
  };
}

/** The free-call line: the number is locked for this phone, then polled until the call came; a call reloads the page. */
export function defineFreeCallActor({ api, env, log }: Pick<Dependencies, 'api' | 'env' | 'log'>) {
  return freeCallMachine.provide({
    actors: {
      lockFreeCall: fromPromise(async ({ input }) => (await api.freeCallLock(input.phone)).json?.result === true),
      checkFreeCall: fromPromise(async ({ input }) => (await api.freeCall(input.phone)).json?.result === true),
    },
    actions: { 'reload page': () => env.reload(), 'log error': logErrorOf({ log }) },
  });
}
