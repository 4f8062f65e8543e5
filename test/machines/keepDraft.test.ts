import { createActor } from 'xstate';
import { keepDraft } from '../../src/keepDraft';
import { appMachine } from '../../src/machines/app';
import { checkoutMachine } from '../../src/machines/checkout';
import { resumeAfterReload } from '../../src/machines/checkoutResume';
import { CHECKOUT_DRAFT_KEY, type CheckoutDraft } from '../../src/services/checkoutDraft';
import type { Bill, LoyaltyUser } from '../../src/services/types';
import type { Chunk, LoadedCode } from '../../src/machines/chunks';
import { aBill } from '../fixtures/billBuilder';
import { codeLoaded, inertCheckoutChildren } from '../fixtures/checkoutChildren';
import { codeFrom } from '../fixtures/chunkCode';
import { fakeRequest, flush, memoryTabStorage } from '../fixtures/fakes';

/*
 * The draft's one writer: the composition root's subscription to the checkout. It writes what `draftOf` gives whenever
 * that changes, for the bill's link id, and nothing while the page still opens on a later step.
 */

const noDraft: CheckoutDraft = { email: null, typed: {}, selectedTypeOid: null, agreements: {}, usedPoints: 0, pointsToUse: null, phoneChecked: false, transactionID: null, code: null };

/** The app with its loads answered by the test, a checkout whose children do nothing, and the draft kept in memory. */
function start(input: { resumePath?: string; draft?: CheckoutDraft; loadCode?: ReturnType<typeof fakeRequest<LoadedCode, { chunks: readonly Chunk[] }>>['logic'] } = {}) {
  const loadBill = fakeRequest<Bill, { billLink: string }>();
  const loadUser = fakeRequest<LoyaltyUser | null, void>();
  const inert = inertCheckoutChildren();
  const checkout = checkoutMachine.provide({ actors: { ...inert.actors, ...(input.loadCode ? { loadCode: input.loadCode } : {}) }, ...resumeAfterReload });
  const app = createActor(
    appMachine.provide({
      actors: { loadBill: loadBill.logic, loadUser: loadUser.logic, loadCode: codeFrom({ paidBill: {} }).loadCode, checkout },
      actions: { 'log error': () => undefined },
    }),
    { input: { billLink: 'bill-1', isDesktop: true, resumePath: input.resumePath ?? null, draft: input.draft ?? null } },
  ).start();
  const storage = memoryTabStorage();
  const writes: unknown[] = [];
  const setItem = storage.setItem;
  storage.setItem = (key, value) => {
    writes.push(JSON.parse(value));
    setItem(key, value);
  };
  const stop = keepDraft(app, storage, 'bill-1');
  const stored = () => JSON.parse(storage.items.get(CHECKOUT_DRAFT_KEY) ?? 'null') as { billLink: string; draft: CheckoutDraft } | null;
  const answer = async (bill = aBill({ objectOID: 'bill-1' })) => {
    loadUser.last.answer.resolve(null);
    loadBill.last.answer.resolve(bill);
    await flush();
  };
  return { app, stored, writes, stop, answer, checkout: () => app.getSnapshot().children.checkout! };
}

test('nothing before the checkout runs; then its draft, for the bill’s link, and again each time it changes', async () => {
  const { stored, writes, answer, checkout } = start();
  expect(writes).toEqual([]);
  await answer();
  expect(stored()).toEqual({ billLink: 'bill-1', draft: noDraft });
  checkout().send({ type: 'payer.typed', typed: { email: 'payer@exa' } });
  expect(stored()?.draft.typed).toEqual({ email: 'payer@exa' });
  expect(writes).toHaveLength(2);
});

test('a change the draft does not hold writes nothing', async () => {
  const { writes, answer, checkout } = start();
  await answer(aBill({ objectOID: 'bill-1', info: { Email: 'payer@example.com' } }));
  checkout().send({ type: 'checkout.continue' });
  await codeLoaded(checkout());
  // The way to pay chosen for the payer is a change.
  expect(writes).toHaveLength(2);
  // The step itself is the address bar's: Back to the first step changes nothing the draft keeps.
  checkout().send({ type: 'nav.back' });
  await codeLoaded(checkout());
  expect(checkout().getSnapshot().context.step).toBe('guest');
  expect(writes).toHaveLength(2);
});

test('while the page opens on a later step, the draft it resumes from is left as it is; once there, it is kept', async () => {
  const loads = fakeRequest<LoadedCode, { chunks: readonly Chunk[] }>();
  const draft = { ...noDraft, email: 'payer@example.com', selectedTypeOid: 'type-sbp' };
  const { stored, writes, answer, checkout } = start({ resumePath: '/choosePaymentType', draft, loadCode: loads.logic });
  await answer();
  expect(checkout().getSnapshot().hasTag('loading step')).toBe(true);
  expect(writes).toEqual([]);
  const paying = inertCheckoutChildren();
  loads.last.answer.resolve({ paying: { offer: paying.offer.logic, payment: paying.payment.logic, paymentStatus: paying.paymentStatus.logic } as never });
  await codeLoaded(checkout());
  expect(checkout().getSnapshot().context.step).toBe('choosePaymentType');
  expect(stored()).toEqual({ billLink: 'bill-1', draft });
});

test('stopped, it writes no more', async () => {
  const { writes, stop, answer, checkout } = start();
  await answer();
  stop();
  checkout().send({ type: 'payer.typed', typed: { email: 'payer@exa' } });
  expect(writes).toHaveLength(1);
});
