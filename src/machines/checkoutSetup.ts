import { assertEvent, assign, sendTo, setup, stopChild } from 'xstate';
import { phoneOf } from '../services/pricing';
import type { CodePurpose } from '../services/rules/codePurposes';
import {
  derive,
  pointsAllowed,
  withSession,
  type CheckoutContext,
  type CheckoutEvent,
  type CheckoutInput,
  type PayOutcome,
} from './checkoutContext';
import type { LoadedCode } from './chunks';
import type { CodeRequest } from './codeFlow';
import { codeFlowInput, spawnCodeFlow, type CodeFlowName } from './codePurposeSteps';
import type { Step } from './steps';
import { checkoutActors, childStarters } from './checkoutChildren';
import { checkoutGuards } from './checkoutGuards';
import { notProvided } from './stub';

/**
 * What the checkout's chart (checkout.ts) is made of: its types, the actors it runs, its actions and its guards
 * (checkoutGuards.ts). The chart names them; what each does is here.
 */
export const checkoutSetup = setup({
  types: {
    input: {} as CheckoutInput,
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    tags: {} as 'busy' | 'redirecting' | 'already paid' | 'loading step' | 'step code failed' | 'form code failed' | 'open attempt' | 'confirming another way' | 'settled',
    children: {} as {
      signIn: 'signIn';
      code: CodeFlowName;
      freeCall: 'freeCall';
      offer: 'offer';
      payment: 'payment';
      paymentStatus: 'paymentStatus';
    },
  },
  actors: checkoutActors,
  actions: {
    'enter step': assign((_, params: { step: Step }) => ({ step: params.step })),
    /** The step the payer asked for, opened once its code is here (`opening`). */
    'go to': assign((_, params: { step: Step }) => ({ goingTo: params.step })),
    'go back': assign({ goingTo: ({ context }) => context.history.at(-1) ?? null }),
    arrive: assign({ goingTo: null }),
    'keep code': assign(({ context }, params: { code: LoadedCode }) => ({ code: { ...context.code, ...params.code } })),
    ...childStarters,
    'push history': assign({ history: ({ context }) => [...context.history, context.step] }),
    'pop history': assign({ history: ({ context }) => context.history.slice(0, -1) }),
    'clear history': assign({ history: [] }),
    /** The steps a payer passed to reach the resumed step, so that 'Назад' works as before the reload. */
    'restore history': assign(({ context }, params: { through: Step[] }) => ({ history: [context.step, ...params.through] })),
    // Resuming after a reload (checkoutResume.ts): provided by the composition root when the address bar named a step
    // at load, from a chunk of its own. Without it nothing is resumed, so this is never reached.
    resume: () => notProvided('resume'),
    'update session': assign(({ context, event }) => {
      assertEvent(event, 'session.updated');
      return withSession(context, event.bill, event.user);
    }),
    /** Nothing was paid: the step says why (or nothing, when the payer closed the bank-app pay widget). */
    'show problem': assign((_, { output }: PayOutcome) => ({ problem: output.outcome === 'not paid' ? output.problem : null })),
    'clear problem': assign({ problem: null }),
    /** The way to pay shown chosen: the one chosen before, else the first; none while points cover the bill. */
    'choose a type': assign({
      selectedTypeOid: ({ context }) => (derive.isCoveredByPoints(context) ? null : (context.selectedTypeOid ?? context.bill.cardTypes[0]?.OID ?? null)),
    }),
    'remember e-mail': assign((_, params: { email: string }) => ({ anotherEmail: params.email, emailError: false })),
    // A refused e-mail is typed no more: a reload shows the field empty, as the refusal left it.
    'mark e-mail rejected': assign(({ context }) => ({ emailError: true, anotherEmail: null, typed: { ...context.typed, email: undefined } })),
    'remember typed': assign(({ context, event }) => {
      assertEvent(event, 'payer.typed');
      return { typed: { ...context.typed, ...event.typed } };
    }),
    // A step that asks for a code starts a fresh send-code flow. It is spawned rather than invoked because it
    // outlives its step: the code screen (and the way back to it from the free-call screen) show the same flow.
    'stop code flow': stopChild('code'),
    'stop child': stopChild((_, params: { id: 'signIn' | 'offer' | 'payment' | 'paymentStatus' | 'freeCall' }) => params.id),
    'start code flow': spawnCodeFlow((context, { purpose }: { purpose: CodePurpose }) => codeFlowInput(context, purpose)),
    /** The draft is the flow's that ended, or a new code replaced it: the forms start empty from now on. */
    'drop form draft': assign(({ context }) => ({ typed: { ...context.typed, form: undefined } })),
    // What the payer asked a code for (this tab's draft keeps it, for a reload on the code screen), until the flow ends.
    'remember code asked for': assign((_, params: { request: CodeRequest }) => ({ codeAskedFor: params.request, sendSmsPhone: params.request.phone })),
    'forget code asked for': assign({ codeAskedFor: null }),
    'apply points': assign(({ context, event }) => {
      assertEvent(event, 'points.use');
      const points = pointsAllowed(context, event.points);
      return { usedPoints: points, pointsToUse: points };
    }),
    'remember points to use': assign(({ context, event }) => {
      assertEvent(event, 'points.use');
      return { pointsToUse: pointsAllowed(context, event.points) };
    }),
    'ask for a points code': sendTo('code', ({ context }) => ({
      type: 'code.request' as const,
      request: { purpose: 'use-points' as const, phone: phoneOf(context.bill, context.user), points: context.pointsToUse ?? 0 },
    })),
    /** Fast payment: the bank-app link, the QR and the transaction, for the sbp step. */
    'remember fast payment': assign((_, { output }: PayOutcome) =>
      output.outcome === 'fast payment' ? { formUrl: output.formUrl, transactionID: output.transactionID, qrSrc: output.qrSrc } : {},
    ),
    /** The fast payment resumed after a reload settled: it is open at the acquirer no more. */
    'forget open attempt': assign({ openAttempt: null }),
  },
  guards: checkoutGuards,
});
