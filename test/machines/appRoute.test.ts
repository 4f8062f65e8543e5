import { createActor } from 'xstate';
import { appMachine } from '../../src/machines/app';
import { appRoute } from '../../src/machines/appRoute';
import { checkoutMachine } from '../../src/machines/checkout';
import type { Bill, LoyaltyUser } from '../../src/services/types';
import { aBill } from '../fixtures/billBuilder';
import { codeLoaded, inertCheckoutChildren } from '../fixtures/checkoutChildren';
import { codeFrom } from '../fixtures/chunkCode';
import { fakeRequest, flush } from '../fixtures/fakes';

/** The app with its loads answered by the test and a checkout whose children do nothing. */
function start() {
  const loadBill = fakeRequest<Bill, { billLink: string }>();
  const loadUser = fakeRequest<LoyaltyUser | null, void>();
  const checkout = checkoutMachine.provide({ actors: inertCheckoutChildren().actors });
  const app = createActor(
    appMachine.provide({
      actors: { loadBill: loadBill.logic, loadUser: loadUser.logic, loadCode: codeFrom({ paidBill: {} }).loadCode, checkout },
      actions: { 'log error': () => undefined },
    }),
    { input: { billLink: 'bill-1', isDesktop: true } },
  ).start();
  const routes: [string | null, readonly string[]][] = [];
  const route = appRoute(app);
  const unsubscribe = route.subscribe((path, behind) => void routes.push([path, behind]));
  return { app, loadBill, loadUser, route, routes, unsubscribe };
}

test('the checkout’s step and the steps behind it, from when it runs; Back goes one step back', async () => {
  const { app, loadBill, loadUser, route, routes } = start();
  expect(routes).toEqual([]);
  loadUser.last.answer.resolve(null);
  loadBill.last.answer.resolve(aBill({ objectOID: 'bill-1', info: { Email: 'payer@example.com' } }));
  await flush();
  expect(routes).toEqual([['/noReg', []]]);
  const checkout = app.getSnapshot().children.checkout!;
  checkout.send({ type: 'checkout.continue' });
  await codeLoaded(checkout);
  expect(routes.at(-1)).toEqual(['/choosePaymentType', ['/noReg']]);
  route.back();
  await codeLoaded(checkout);
  expect(routes.at(-1)).toEqual(['/noReg', []]);
});

test('a paid bill has no step: the route is none', async () => {
  const { loadBill, loadUser, routes } = start();
  loadUser.last.answer.resolve(null);
  loadBill.last.answer.reject(Object.assign(new Error('paid'), { status: 409, body: { paid: true, receipt: null } }));
  await flush();
  expect(routes.at(-1)).toEqual([null, []]);
});

test('unsubscribing stops the reports', async () => {
  const { app, loadBill, loadUser, routes, unsubscribe } = start();
  loadUser.last.answer.resolve(null);
  loadBill.last.answer.resolve(aBill({ objectOID: 'bill-1', info: { Email: 'payer@example.com' } }));
  await flush();
  unsubscribe();
  app.getSnapshot().children.checkout!.send({ type: 'checkout.continue' });
  expect(routes).toEqual([['/noReg', []]]);
});
