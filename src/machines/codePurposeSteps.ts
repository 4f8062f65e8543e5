import { canUsePoints, maxSpendablePoints } from '../services/pricing';
import type { CodePurpose } from '../services/rules/codePurposes';
import type { Bill } from '../services/types';
import type { CaptchaPolicy } from './accountFlow';
import type { CheckoutContext, CheckoutEvent } from './checkoutContext';
import { child, logicOf, startChild } from './chunks';
import type { CodeFlowInput, CodeRequest } from './codeFlow';
import type { Step } from './steps';

/**
 * The checkout's side of each code purpose, in one table. Every purpose runs the same send-code flow (codeFlow.ts),
 * spawned under its own name (`flow`), whose `finish`, what a right code unlocks, the composition root provides per
 * purpose. `form` is the step whose form asks for the code: a reload on the code screen whose code cannot be resumed
 * goes back there. `captcha` is the robot check of that form: forgot-password and register text any phone typed in,
 * so they always have it; the points code goes to the bill's own phone.
 */
export const codePurposeSteps = {
  'use-points': { flow: 'pointsCode', form: 'usePoints', captcha: 'when asked' },
  'forgot-password': { flow: 'passwordCode', form: 'forgotPassword', captcha: 'always' },
  register: { flow: 'registrationCode', form: 'register', captcha: 'always' },
} as const satisfies Record<CodePurpose, { flow: string; form: Step; captcha: CaptchaPolicy }>;

/** The names the send-code flows run under, one per purpose. */
export type CodeFlowName = (typeof codePurposeSteps)[CodePurpose]['flow'];

/** Whether the bill offers a purpose's step: points to spend, or the account step's flows (restore, registration). */
export const offersPurpose = (bill: Bill, purpose: CodePurpose) =>
  purpose === 'use-points' ? canUsePoints(bill) && maxSpendablePoints(bill) > 0 : !bill.noReg;

/** The send-code flow's input for a purpose's step: its form's draft when this tab kept one. */
export const codeFlowInput = (context: CheckoutContext, purpose: CodePurpose): CodeFlowInput => ({
  purpose,
  captcha: codePurposeSteps[purpose].captcha,
  objectOID: context.bill.objectOID,
  custNo: purpose === 'use-points' ? context.bill.info.CustNo : null,
  draft: context.typed.form?.purpose === purpose ? context.typed.form : null,
});

/**
 * What a confirmed code changes in the checkout, by what it was for. A new password or a registration is followed by
 * the sign-in form with the notice and the phone the password went to, so only the password is left to type.
 */
export function unlocked(request: CodeRequest, context: Pick<CheckoutContext, 'typed'>): Partial<CheckoutContext> {
  switch (request.purpose) {
    case 'use-points':
      return request.points === null ? { phoneChecked: true } : { usedPoints: request.points, pointsToUse: request.points, phoneChecked: true };
    case 'forgot-password':
      return { notice: 'new password sent', typed: { ...context.typed, signInPhone: request.phone } };
    case 'register':
      return { notice: 'registration success', typed: { ...context.typed, signInPhone: request.phone } };
  }
}

/** The send-code flow of a purpose, as the checkout's 'code' child: its purpose's flow from the account flows' chunk. */
export const codeFlowChild = (context: CheckoutContext, input: CodeFlowInput) => child('code', logicOf(context.code, 'accountFlows')[codePurposeSteps[input.purpose].flow], input);

/**
 * Starts the send-code flow of a purpose (its logic from the account flows' chunk, whose steps start it), as the
 * checkout's 'code' child.
 */
export function spawnCodeFlow<Params extends { purpose: CodePurpose }>(inputOf: (context: CheckoutContext, params: Params) => CodeFlowInput) {
  return startChild<CheckoutContext, CheckoutEvent, Params>((context, params) => codeFlowChild(context, inputOf(context, params)));
}
