import { maxSpendablePoints } from '../services/pricing';
import { derive, missingAgreements, type CheckoutContext, type CheckoutEvent, type PayOutcome } from './checkoutContext';
import { missingChunks, type Chunk } from './chunks';
import { openedByPayer, returnable, stepAt, steps, type Step } from './steps';

/** What a guard of the checkout reads: its context and the event being taken. */
type Args = { context: CheckoutContext; event: CheckoutEvent };

const chunkOfStep = (step: Step | null): Chunk[] => {
  const chunk = step ? steps[step].chunk : null;
  return chunk ? [chunk] : [];
};

/**
 * The code `opening` fetches: the step's asked for, or, as the page opens, that of the step the address bar names (a
 * reload resumes it) or of the way to pay ('Попробовать снова' opens there). The main route's is in the first scripts.
 */
const codeToOpen = (context: CheckoutContext): Chunk[] =>
  context.goingTo ? chunkOfStep(context.goingTo) : [...chunkOfStep(stepAt(context.resumePath)), ...(context.bill.retry ? (['paying'] as const) : [])];

export const codeMissing = (context: CheckoutContext) => missingChunks(context.code, codeToOpen(context));

/** The checkout's guards: the questions its transitions ask, each named as the payer's situation. */
export const checkoutGuards = {
  /** The page opens on a step past the first (a reload on it, a retry) whose code is not here yet. */
  'opens on a later step': ({ context }: Args) => codeMissing(context).length > 0,
  'is its code here': ({ context }: Args) => codeMissing(context).length === 0,
  'is going to': ({ context }: Args, params: { step: Step }) => context.goingTo === params.step,
  'is the sign-in form here': ({ context }: Args) => !!context.code.signInForm,
  'is opened by the payer': ({ event }: Args) => event.type === 'nav.goTo' && (openedByPayer as readonly Step[]).includes(event.step),
  'can go back': ({ context }: Args) => (returnable as readonly Step[]).includes(context.history.at(-1) as Step),
  'main route is the guest step': ({ context }: Args) => context.bill.noReg,
  // Resuming after a reload (checkoutResume.ts), when provided; by default a reload starts at the main route.
  'resumes at': (_: Args, _params: { step: Step }) => false,
  /** A points code resumed with no draft in this tab was confirmed: the phone is proven, the points must be chosen again. */
  'is points unknown': ({ event }: Args) => event.type === 'code.confirmed' && event.request.purpose === 'use-points' && event.request.points === null,
  /** Back from a declined payment's 'Попробовать снова', with the e-mail known: straight to choosing again. */
  'is a retry': ({ context }: Args) => !!context.bill.retry && derive.emailUsed(context) !== '',
  'is signed in': ({ context }: Args) => context.user !== null,
  'is e-mail known': ({ context }: Args) => derive.emailUsed(context) !== '',
  'is e-mail given': ({ event }: Args) => event.type === 'checkout.continue' && !!event.email,
  // A bill paid in parts spends points on one part only: once a part has spent them, none are left for the next.
  'has no spendable points': ({ context }: Args) => !context.bill.info.CustNo || !!context.bill.parts?.pointsSpent || maxSpendablePoints(context.bill) <= 0,
  'is phone checked': ({ context }: Args) => context.phoneChecked,
  /** An attempt of the bill may still be paid (and a way to pay is needed): it is said before any other way is offered. */
  'is an attempt open': ({ context }: Args) => context.openAttempt !== null && !derive.isCoveredByPoints(context),
  /** When points cover the bill no type is chosen, so choosing one is ignored. */
  'is a type needed': ({ context }: Args) => !derive.isCoveredByPoints(context),
  'is an agreement missing': ({ context }: Args) => Object.values(missingAgreements(context)).includes(true),
  /** A part the bill cannot take (below the minimum, above what remains): the field says why beside it. */
  'is the part wrong': ({ context }: Args) => derive.partProblem(context) !== null,
  /** Pay brought an e-mail other than the one the receipt would go to: the server checks it first. */
  'is e-mail changed': ({ context, event }: Args) => event.type === 'payment.pay' && event.email !== undefined && derive.isEmailChanged(context, event.email),
  'is fast payment': (_: Args, { output }: PayOutcome) => output.outcome === 'fast payment',
  'is bill paid meanwhile': (_: Args, { output }: PayOutcome) => output.outcome === 'already paid',
  'is not paid': (_: Args, { output }: PayOutcome) => output.outcome === 'not paid',
  'is paid': (_: Args, params: { status: string }) => params.status === 'success',
  'is declined': (_: Args, params: { status: string }) => params.status === 'declined',
  'is refunded': (_: Args, params: { status: string }) => params.status === 'refunded',
};
