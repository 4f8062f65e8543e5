import { createActor } from 'xstate';
import { appMachine, type AppInput } from '../../src/machines/app';
import type { Bill, LoyaltyUser } from '../../src/services/types';
import { aBill, aUser } from '../fixtures/billBuilder';
import { fakeCallback, fakeRequest, flush } from '../fixtures/fakes';

function start(input: AppInput = { billLink: 'demo-reg', isDesktop: true }) {
  const loadBill = fakeRequest<Bill, { billLink: string }>();
  const loadUser = fakeRequest<LoyaltyUser | null, void>();
  const logout = fakeRequest<void, void>();
  const checkout = fakeCallback<{ bill: Bill; user: LoyaltyUser | null; isDesktop: boolean }>();
  const effects: unknown[][] = [];
  const actor = createActor(
    appMachine.provide({
      actors: { loadBill: loadBill.logic, loadUser: loadUser.logic, logout: logout.logic, checkout: checkout.logic as never },
      actions: {
        'show data error title': () => effects.push(['title']),
        'track sign-in': (_, { user }) => effects.push(['track', user]),
        'log error': (_, { error }) => effects.push(['log', error]),
      },
    }),
    { input },
  ).start();
  return { actor, loadBill, loadUser, logout, checkout, effects };
}

const bill = aBill({ objectOID: 'demo-reg', noReg: false });
const user = aUser();

/** Starts the app and lets both loads answer, so it shows the checkout. */
async function started() {
  const app = start();
  app.loadUser.last.answer.resolve(user);
  app.loadBill.last.answer.resolve(bill);
  await flush();
  return app;
}

describe('loading', () => {
  test('fetches the user and the bill in parallel, with the loading tag', () => {
    const { actor, loadBill, loadUser } = start();
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    expect(actor.getSnapshot().value).toEqual({ loading: { user: 'fetching', bill: 'fetching' } });
    expect(loadUser.inFlight).toBe(1);
    expect(loadBill.inFlight).toBe(1);
    expect(loadBill.last.input).toEqual({ billLink: 'demo-reg', retry: null });
  });

  test('waits for both answers, then shows the checkout with the bill, the user and the device', async () => {
    const { actor, loadBill, loadUser, checkout, effects } = start();
    loadBill.last.answer.resolve(bill);
    await flush();
    expect(actor.getSnapshot().value).toEqual({ loading: { user: 'fetching', bill: 'done' } });
    expect(checkout.runs).toHaveLength(0);
    loadUser.last.answer.resolve(user);
    await flush();
    expect(actor.getSnapshot().value).toEqual({ content: 'ready' });
    expect(actor.getSnapshot().hasTag('loading')).toBe(false);
    expect(actor.getSnapshot().context).toMatchObject({ bill, user });
    expect(checkout.last.input).toEqual({ bill, user, isDesktop: true, resumePath: null, draft: null, retryWay: null });
    expect(actor.getSnapshot().children.checkout).toBeDefined();
    expect(effects).toEqual([]);
  });

  test("a reload: the checkout gets the address bar's step and this tab's draft (with the code step's)", async () => {
    const code = { purpose: 'forgot-password' as const, phone: '79990000002' };
    const draft = { email: 'payer@example.com', typed: {}, selectedTypeOid: null, agreements: {}, usedPoints: 0, pointsToUse: null, phoneChecked: false, transactionID: null, code };
    const { loadBill, loadUser, checkout } = start({ billLink: 'demo-reg', isDesktop: true, resumePath: '/checkSendCode', draft, retryWay: 'SBP' });
    loadBill.last.answer.resolve(bill);
    loadUser.last.answer.resolve(null);
    await flush();
    expect(checkout.last.input).toEqual({ bill, user: null, isDesktop: true, resumePath: '/checkSendCode', draft, retryWay: 'SBP' });
  });

  test('a guest (no user) gets the checkout too', async () => {
    const { actor, loadBill, loadUser, checkout } = start();
    loadUser.last.answer.resolve(null);
    loadBill.last.answer.resolve(bill);
    await flush();
    expect(actor.getSnapshot().value).toEqual({ content: 'ready' });
    expect(checkout.last.input.user).toBeNull();
  });

  test('a failed user load is logged and the payer goes on as a guest', async () => {
    const { actor, loadBill, loadUser, checkout, effects } = start();
    const error = new Error('provider down');
    loadUser.last.answer.reject(error);
    loadBill.last.answer.resolve(bill);
    await flush();
    expect(actor.getSnapshot().value).toEqual({ content: 'ready' });
    expect(effects).toEqual([['log', error]]);
    expect(checkout.last.input.user).toBeNull();
  });

  test('a failed bill load shows the data error and sets the title, even with the user still loading', async () => {
    const { actor, loadBill, loadUser, checkout, effects } = start();
    const error = new Error('already paid');
    loadBill.last.answer.reject(error);
    await flush();
    expect(actor.getSnapshot().value).toBe('error');
    expect(actor.getSnapshot().hasTag('error')).toBe(true);
    expect(actor.getSnapshot().hasTag('loading')).toBe(false);
    expect(effects).toEqual([['log', error], ['title']]);
    expect(checkout.runs).toHaveLength(0);
    // The user request still out is dropped: its answer changes nothing.
    loadUser.last.answer.resolve(user);
    await flush();
    expect(actor.getSnapshot().value).toBe('error');
    expect(actor.getSnapshot().context.user).toBeNull();
  });
});

test("an expired or cancelled bill's refusal: the error knows which, and no fault is logged", async () => {
  for (const closedAs of ['expired', 'cancelled'] as const) {
    const { actor, loadBill, effects } = start();
    loadBill.last.answer.reject(Object.assign(new Error('closed'), { status: 409, body: { success: false, error: 'closed', closedAs } }));
    await flush();
    expect(actor.getSnapshot().value).toBe('error');
    expect(actor.getSnapshot().context.closedAs).toBe(closedAs);
    expect(effects).toEqual([['log', null], ['title']]);
  }
});

describe('after a sign-in', () => {
  test('reloads the user (with an analytics event) and refetches the bill, then tells the checkout', async () => {
    const { actor, loadBill, loadUser, checkout, effects } = await started();
    checkout.last.sendBack({ type: 'user.signedIn' });
    expect(actor.getSnapshot().value).toEqual({ content: { refreshing: { user: 'fetching', bill: 'fetching' } } });
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(true);
    expect(loadUser.calls).toHaveLength(2);
    expect(loadBill.calls).toHaveLength(2);
    expect(loadBill.last.input).toEqual({ billLink: 'demo-reg', retry: null });

    const signedIn = aUser({ name: 'Новый', oid: 'user-2' });
    const newerBill = aBill({ objectOID: 'demo-reg', noReg: false, usefulPoints: 10 });
    loadUser.last.answer.resolve(signedIn);
    await flush();
    expect(effects).toEqual([['track', signedIn]]);
    expect(checkout.last.received).toEqual([]);
    loadBill.last.answer.resolve(newerBill);
    await flush();

    expect(actor.getSnapshot().value).toEqual({ content: 'ready' });
    expect(actor.getSnapshot().context).toMatchObject({ user: signedIn, bill: newerBill });
    expect(checkout.last.received).toEqual([{ type: 'session.updated', bill: newerBill, user: signedIn }]);
    // The checkout keeps running: it is told, not restarted.
    expect(checkout.runs).toHaveLength(1);
  });

  test('a failed reload is logged and the data the payer had is kept', async () => {
    const { actor, loadBill, loadUser, checkout, effects } = await started();
    actor.send({ type: 'user.signedIn' });
    const userError = new Error('user');
    const billError = new Error('bill');
    loadUser.last.answer.reject(userError);
    loadBill.last.answer.reject(billError);
    await flush();
    expect(actor.getSnapshot().value).toEqual({ content: 'ready' });
    expect(effects).toEqual([
      ['log', userError],
      ['log', billError],
    ]);
    expect(actor.getSnapshot().context).toMatchObject({ user, bill });
    expect(checkout.last.received).toEqual([{ type: 'session.updated', bill, user }]);
  });

  test('events that arrive while refreshing are not acted on twice', async () => {
    const { actor, loadUser, logout } = await started();
    actor.send({ type: 'user.signedIn' });
    actor.send({ type: 'user.signedIn' });
    actor.send({ type: 'user.change' });
    expect(loadUser.calls).toHaveLength(2);
    expect(logout.calls).toHaveLength(0);
  });
});

describe("'change user'", () => {
  test('logs out and clears the user, then tells the checkout', async () => {
    const { actor, logout, checkout, effects } = await started();
    checkout.last.sendBack({ type: 'user.change' });
    expect(actor.getSnapshot().value).toEqual({ content: 'loggingOut' });
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(true);
    expect(logout.calls).toHaveLength(1);
    logout.last.answer.resolve();
    await flush();
    expect(actor.getSnapshot().value).toEqual({ content: 'ready' });
    expect(actor.getSnapshot().context.user).toBeNull();
    expect(checkout.last.received).toEqual([{ type: 'session.updated', bill, user: null }]);
    expect(effects).toEqual([]);
  });

  test('forgets the user on this page even when the logout call fails, and logs the failure', async () => {
    const { actor, logout, checkout, effects } = await started();
    actor.send({ type: 'user.change' });
    const error = new Error('provider down');
    logout.last.answer.reject(error);
    await flush();
    expect(actor.getSnapshot().value).toEqual({ content: 'ready' });
    expect(actor.getSnapshot().context.user).toBeNull();
    expect(effects).toEqual([['log', error]]);
    expect(checkout.last.received).toEqual([{ type: 'session.updated', bill, user: null }]);
  });
});

test('the default effects fail loudly when not provided', async () => {
  const actor = createActor(appMachine, { input: { billLink: 'x', isDesktop: false } });
  const errors: unknown[] = [];
  actor.subscribe({ error: (error) => errors.push(error) });
  actor.start();
  await flush();
  expect(String(errors[0])).toMatch(/is not provided/);
});
