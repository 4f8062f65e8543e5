import { fromPromise } from 'xstate';
import { codeFlowMachine, nothingToFinish, type FinishInput } from '../machines/codeFlow';
import type { CodeFlowName } from '../machines/codePurposeSteps';
import { freeCallMachine } from '../machines/freeCall';
import { answerOf, type AccountAnswer } from '../services/accountAnswer';
import { readPageConfig } from '../services/pageConfig';
import type { FreeCallNumber, FreeCallState } from '../services/types';
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

/** The server's word on a free call: confirmed, over (the check ended, or this page has none), two pages' call, or waiting. */
function freeCallStateOf(json: { result: boolean; state?: string } | undefined): FreeCallState {
  if (json?.result === true) return 'confirmed';
  if (json?.state === 'ended' || json?.state === 'none') return 'ended';
  return json?.state === 'conflict' ? 'conflict' : 'waiting';
}

/**
 * The free call: a check starts for this phone with a number to call, then it is polled (at the pace the page's
 * configuration sets, if it sets one); a call reloads the page.
 */
export function defineFreeCallActor({ api, env, log, doc }: Pick<Dependencies, 'api' | 'env' | 'log' | 'doc'>) {
  const pollMs = readPageConfig(doc).pollMs;
  return freeCallMachine.provide({
    ...(pollMs ? { delays: { 'free call poll interval': pollMs } } : {}),
    actors: {
      lockFreeCall: fromPromise(async ({ input }): Promise<FreeCallNumber | null> => {
        const json = (await api.freeCallLock(input.phone)).json;
        return json?.result === true && json.call_phone ? { callPhone: json.call_phone, callPhonePretty: json.call_phone_pretty || `+${json.call_phone}` } : null;
      }),
      checkFreeCall: fromPromise(async ({ input }) => freeCallStateOf((await api.freeCall(input.phone)).json)),
    },
    actions: { 'reload page': () => env.reload(), 'log error': logErrorOf({ log }) },
  });
}
