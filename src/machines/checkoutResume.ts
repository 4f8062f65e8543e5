import { enqueueActions } from 'xstate';
import { maskPhone } from '../services/format';
import { clampPoints, maxSpendablePoints, phoneOf } from '../services/pricing';
import type { CodePurpose } from '../services/rules/codePurposes';
import type { checkoutMachine } from './checkout';
import type { CheckoutContext, CheckoutEvent } from './checkoutContext';
import type { codeFlowMachine, CodeFlowInput, CodeRequest } from './codeFlow';
import { codeFlowInput, codePurposeSteps, offersPurpose, type CodeFlowName } from './codePurposeSteps';
import { steps, type Step } from './steps';

/**
 * Resuming after a reload. The address bar names the step the payer was on; the server's bill data says what is
 * still open there (the fast payment's attempt, this session's code) and this tab's draft what the code was asked
 * for. The checkout's `start` state asks the guards below and goes back to the step when it can, else to the main
 * route. The composition root provides them (`resumeAfterReload`) only when the address bar named a step at load:
 * this module is a chunk of its own, so that a first visit's JS does not carry it; without it nothing is resumed.
 */

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

/** What a reload on the code screen brings back: the code screen with the request, or the step before it. */
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
  const draft = context.codeDraft ?? null;
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
export const resumedForm = (context: CheckoutContext): Partial<CheckoutContext> =>
  resumedCode(context)?.purpose === 'use-points' ? resumedPointsAsked(context) : { formDraft: resumedCode(context)?.request ?? null };

type CodeFlows = { src: CodeFlowName; logic: typeof codeFlowMachine; id: 'code' };

/** The step a reload resumes: the one the address bar named, when the server's data (and this tab's draft) allow it. */
export function resumedStepOf(context: CheckoutContext): Step | null {
  if (resumableFastPayment(context)) return 'sbp';
  const code = resumedCode(context);
  if (!code) return null;
  return code.at === 'code screen' ? 'checkSendCode' : codePurposeSteps[code.purpose].form;
}

/** The checkout's guard and action of resuming, as the composition root provides them after a reload on a step. */
export const resumeAfterReload = {
  guards: {
    'resumes at': ({ context }: { context: CheckoutContext }, params: { step: Step }) => resumedStepOf(context) === params.step,
  },
  actions: {
    /**
     * The step as it was, with the steps a payer passed to reach it as history, so that 'Назад' works as before the
     * reload: the fast payment's QR and polling (back: choosing the way to pay); the code screen, whose send-code flow
     * starts on it with the request the page knows and the server's countdown (back: the flow's form); or the form,
     * showing again what it had.
     */
    resume: enqueueActions<CheckoutContext, CheckoutEvent, unknown, CheckoutEvent, CodeFlows, never, never, never, never>(({ context, enqueue }) => {
      if (resumableFastPayment(context)) {
        enqueue.assign({ ...resumedFastPayment(context), history: [context.step, 'choosePaymentType'] });
        return;
      }
      const { purpose, at } = resumedCode(context)!;
      if (at === 'form') {
        enqueue.assign({ ...resumedForm(context), history: [context.step] });
        return;
      }
      enqueue.assign({ ...resumedPointsAsked(context), history: [context.step, codePurposeSteps[purpose].form] });
      enqueue.spawnChild(codePurposeSteps[purpose].flow, { id: 'code', input: resumedFlowInput(context, purpose) });
    }),
  },
} satisfies Parameters<typeof checkoutMachine.provide>[0];

export type ResumeAfterReload = typeof resumeAfterReload;
