import { enqueueActions } from 'xstate';
import { maskPhone } from '../services/rules/phone';
import { clampPoints, maxSpendablePoints, phoneOf } from '../services/pricing';
import type { CodePurpose } from '../services/rules/codePurposes';
import type { checkoutMachine } from './checkout';
import { derive, openChoiceOf, type CheckoutContext, type CheckoutEvent } from './checkoutContext';
import { fromDraft } from './checkoutDraft';
import type { CodeFlowInput, CodeRequest } from './codeFlow';
import { startChild } from './chunks';
import { codeFlowChild, codeFlowInput, codePurposeSteps, offersPurpose } from './codePurposeSteps';
import { stepAt, steps, type Step } from './steps';

/**
 * Resuming after a reload (or Back from the bank's card form, which loads the page again). The address bar names the
 * step the payer was on; this tab's draft (services/checkoutDraft.ts) gives back what was chosen and typed; the
 * server's bill data says what is still open there (the fast payment's attempt, this session's code) and the code
 * step's draft what the code was asked for. The checkout's `start` state asks the guards below and goes back to the
 * step with everything kept when the step can be had again, else to the step before it, else to the main route. The
 * composition root provides them (`resumeAfterReload`) only when the address bar named a step at load: this module
 * is a chunk of its own, so that a first visit's JS does not carry it; without it nothing is resumed.
 */

/**
 * This tab's draft given back (checkoutDraft.ts: the one way back from a draft), and the bill's attempt still open at
 * the acquirer (the way-to-pay step says so).
 */
export const resumedChoices = (context: CheckoutContext): Partial<CheckoutContext> => ({
  ...(context.draft ? fromDraft(context.draft, context.bill, context) : {}),
  openAttempt: openChoiceOf(context.bill),
});

const withChoices = (context: CheckoutContext): CheckoutContext => ({ ...context, ...resumedChoices(context) });

/** The bill's open fast-payment attempt, when the page was reloaded on its step and it is one of this bill's types. */
export const resumableFastPayment = (context: CheckoutContext) => {
  const open = context.bill.openAttempt;
  if (context.resumePath !== steps.sbp.path || !open?.sbp || open.status !== 'created') return null;
  return context.bill.cardTypes.some((type) => type.OID === open.cardTypeOID) ? { ...open, sbp: open.sbp } : null;
};

/** The fast payment's step as it was: its way to pay, its points, its QR and the transaction polled. */
export const resumedFastPayment = (context: CheckoutContext): Partial<CheckoutContext> => {
  const open = resumableFastPayment(context)!;
  return {
    selectedTypeOid: open.cardTypeOID,
    usedPoints: open.pointsUsed,
    transactionID: open.sbp.qrcId,
    formUrl: open.sbp.payload,
    qrSrc: `data:image/png;base64,${open.sbp.image}`,
  };
};

/** What a reload on the code screen brings back: the code screen, or its form. */
export interface ResumedCode {
  purpose: CodePurpose;
  at: 'code screen' | 'form';
  request: CodeRequest | null;
}

/**
 * Reloaded on the code screen. The server says whether this session's code is still valid (`sentCode`, its phone
 * masked); this tab's draft knows what it was asked for. Both agreeing (purpose, masked phone), the code screen comes
 * back and a right code finishes as without the reload. A points code's phone is the bill's own, so its screen comes
 * back without a draft too, the points then unknown (null). Otherwise the flow known from either goes to its form, the
 * step before; nothing known, or a flow this bill does not offer: null, the main route.
 */
export const resumedCode = (context: CheckoutContext): ResumedCode | null => {
  if (context.resumePath !== steps.checkSendCode.path) return null;
  const sent = context.bill.sentCode ?? null;
  const draft = context.draft?.code ?? null;
  const purpose = sent?.purpose ?? draft?.purpose;
  if (!purpose || !offersPurpose(context.bill, purpose)) return null;
  const ownDraft = draft?.purpose === purpose ? draft : null;
  if (sent && ownDraft && maskPhone(ownDraft.phone) === sent.phone) return { purpose, at: 'code screen', request: ownDraft };
  if (sent?.purpose === 'use-points') return { purpose, at: 'code screen', request: { purpose: sent.purpose, phone: phoneOf(context.bill, context.user), points: null } };
  return { purpose, at: 'form', request: ownDraft };
};

/** The send-code flow's input for a code screen resumed with its request and the server's countdown. */
export const resumedFlowInput = (context: CheckoutContext, purpose: CodePurpose): CodeFlowInput => ({
  ...codeFlowInput(context, purpose),
  resume: { request: resumedCode(context)!.request!, secondsLeft: context.bill.sentCode?.secondsLeft ?? 0 },
});

/** The points field shows again what was asked for before the reload (its code ran out, or was never kept). */
export const resumedPointsAsked = (context: CheckoutContext): Partial<CheckoutContext> => {
  const draft = resumedCode(context)?.request;
  return draft?.purpose === 'use-points' && draft.points !== null ? { pointsToUse: clampPoints(draft.points, maxSpendablePoints(context.bill)) } : {};
};

/** A resumed form shows what it had before the reload: the points asked for, or the restore or registration form. */
export const resumedForm = (context: CheckoutContext): Partial<CheckoutContext> => {
  const code = resumedCode(context);
  if (code?.purpose === 'use-points') return resumedPointsAsked(context);
  return code?.request ? { typed: { ...context.typed, form: code.request } } : {};
};

/** The free-call screen resumed: its code screen behind it, as a reload there would resume it. */
const behindFreeCall = (context: CheckoutContext): CheckoutContext => ({ ...context, resumePath: steps.checkSendCode.path });

/**
 * The free-call screen comes back only to a payer not signed in (the call signs them in and reloads the page), with the
 * restore code it was reached from still valid.
 */
const resumesFreeCall = (context: CheckoutContext) => {
  const code = resumedCode(behindFreeCall(context));
  return !context.user && code?.purpose === 'forgot-password' && code.at === 'code screen';
};

/**
 * The step a reload resumes, from the choices given back: the one the address bar named when what it needs is still
 * there (the open attempt, the code, the e-mail, the points), else the step before it, else the main route. Null when
 * the address bar named no step: nothing to resume, the checkout starts as on a first visit.
 */
export function resumedStepOf(original: CheckoutContext): Step | null {
  if (!original.resumePath) return null;
  const context = withChoices(original);
  const main = original.step;
  if (resumableFastPayment(context)) return 'sbp';
  const step = stepAt(context.resumePath);
  if (step === 'checkByPhone') return resumesFreeCall(context) ? step : main;
  const code = resumedCode(context);
  if (code) return code.at === 'code screen' ? 'checkSendCode' : codePurposeSteps[code.purpose].form;
  const emailKnown = derive.emailUsed(context) !== '';
  switch (step) {
    case 'usePoints':
      return offersPurpose(context.bill, 'use-points') ? step : main;
    case 'forgotPassword':
      return offersPurpose(context.bill, 'forgot-password') ? step : main;
    case 'register':
      return offersPurpose(context.bill, 'register') ? step : main;
    case 'choosePaymentType':
      return emailKnown ? step : main;
    // The fast payment settled during the reload: its result; else choosing again.
    case 'sbp':
    case 'result':
      return context.transactionID ? 'result' : emailKnown ? 'choosePaymentType' : main;
    default:
      return main;
  }
}

/** The steps a payer passed to reach a resumed step, so that 'Назад' works as before the reload. */
function historyOf(step: Step, context: CheckoutContext): Step[] {
  const main = context.step;
  switch (step) {
    case 'account':
    case 'guest':
      return [];
    case 'checkSendCode':
      return [main, codePurposeSteps[resumedCode(context)!.purpose].form];
    case 'checkByPhone':
      return [main, 'forgotPassword', 'checkSendCode'];
    case 'sbp':
    case 'result':
      return [main, 'choosePaymentType'];
    default:
      return [main];
  }
}

/** The checkout's guard and action of resuming, as the composition root provides them after a reload on a step. */
export const resumeAfterReload = {
  guards: {
    'resumes at': ({ context }: { context: CheckoutContext }, params: { step: Step }) => resumedStepOf(context) === params.step,
  },
  actions: {
    /**
     * The step as it was, with what was chosen and typed, and the steps before it as history: the fast payment's QR and
     * polling; the code screen (or the free-call screen after it), whose send-code flow starts on it with the request
     * the page knows and the server's countdown; a form showing again what it had; or any other step.
     */
    // Children are started from their chunk's logic (chunks.ts): the code screen's flow from the account flows', which
    // the checkout fetched before resuming a step of theirs.
    resume: enqueueActions<CheckoutContext, CheckoutEvent, unknown, CheckoutEvent, never, never, never, never, never>(({ context: original, enqueue }) => {
      const step = resumedStepOf(original)!;
      const resumed = withChoices(original);
      const context = step === 'checkByPhone' ? behindFreeCall(resumed) : resumed;
      enqueue.assign({ ...resumedChoices(original), history: historyOf(step, context) });
      if (step === 'sbp') {
        enqueue.assign(resumedFastPayment(context));
        return;
      }
      const code = resumedCode(context);
      if (!code) return;
      if (code.at === 'form') {
        enqueue.assign(resumedForm(context));
        return;
      }
      enqueue.assign(resumedPointsAsked(context));
      enqueue(startChild<CheckoutContext, CheckoutEvent>(() => codeFlowChild(context, resumedFlowInput(context, code.purpose))));
    }),
  },
} satisfies Parameters<typeof checkoutMachine.provide>[0];

export type ResumeAfterReload = typeof resumeAfterReload;
