import { codeFlowMachine } from './codeFlow';
import { freeCallMachine } from './freeCall';
import { offerMachine } from './offer';
import { paymentMachine } from './payment';
import { paymentStatusMachine } from './paymentStatus';
import { signInMachine } from './signIn';

/**
 * The checkout's own children, with their I/O still stubs: what checkout.ts names among its actors, in a chunk of its
 * own that only tests, the statechart tools and the server's rendering load (the page provides its own, src/actors).
 */
export const checkoutChildren = {
  offer: offerMachine,
  payment: paymentMachine,
  paymentStatus: paymentStatusMachine,
  signIn: signInMachine,
  freeCall: freeCallMachine,
  codeFlow: codeFlowMachine,
};
