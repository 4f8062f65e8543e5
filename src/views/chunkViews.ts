import type { ComponentType } from 'react';
import type { CheckoutActor, Step } from '../machines/checkout';
import type { PaidBillProps } from './PaidBill';

/** A step's view: it reads its slice of the checkout and sends events. */
export type StepView = ComponentType<{ actor: CheckoutActor }>;

/**
 * The views that come in the page's chunks of code (machines/chunks.ts), as the composition root hands them over. A
 * state that shows one is entered only once its chunk is here (the chart loads it first), so the view is here by
 * then; null before.
 */
export interface ChunkViews {
  /** The view of a step whose code is a chunk (every step but the first). */
  step(step: Step): StepView | null;
  /** The account route's sign-in form. */
  signInForm(): StepView | null;
  /** A paid bill's receipt. */
  paidBill(): ComponentType<PaidBillProps> | null;
}
