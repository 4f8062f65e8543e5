import { createActor, type PromiseActorLogic } from 'xstate';
import { defineLoadCode, madeOnce } from '../../src/actors/code';
import { appMachine } from '../../src/machines/app';
import { checkoutMachine, type CheckoutInput } from '../../src/machines/checkout';
import type { Chunk, LoadedCode } from '../../src/machines/chunks';
import { resumeAfterReload } from '../../src/machines/checkoutResume';
import { CHUNK_RETRY_MS, pageCode, type ChunkModules } from '../../src/pageCode';
import { ApiError } from '../../src/services/http';
import type { Bill, LoyaltyUser } from '../../src/services/types';
import { accountBill } from '../fixtures/accountFlows';
import { aBill } from '../fixtures/billBuilder';
import { inertCheckoutChildren } from '../fixtures/checkoutChildren';
import { deferred, fakeCallback, fakeRequest, flush } from '../fixtures/fakes';

/*
 * Code that is not here yet is a state: a step the payer asks for, the page opening on a later step, the sign-in form
 * and a paid bill's receipt each wait for their chunk in a state, say so when it cannot come, and go on at the payer's
 * retry. The chunks themselves are fetched once each, with one retry 1.5 s after a failure (pageCode.ts).
 */

describe("the page's chunks (pageCode.ts)", () => {
  afterEach(() => jest.useRealTimers());

  /** Chunks fetched over a network the test answers: `tries` lists every fetch. */
  function network() {
    const tries: { chunk: Chunk; answer: ReturnType<typeof deferred<unknown>> }[] = [];
    const code = pageCode(<C extends Chunk>(chunk: C) => {
      const answer = deferred<unknown>();
      tries.push({ chunk, answer });
      return answer.promise as Promise<ChunkModules[C]>;
    });
    return { code, tries };
  }

  test('each is fetched once, however many ask; once here it is at hand', async () => {
    const { code, tries } = network();
    expect(code.here('paying')).toBeNull();
    const first = code.load('paying');
    const second = code.load('paying');
    expect(tries).toHaveLength(1);
    const module = { views: {} };
    tries[0]!.answer.resolve(module);
    await expect(first).resolves.toBe(module);
    await expect(second).resolves.toBe(module);
    expect(code.here('paying')).toBe(module);
    expect(code.here('accountFlows')).toBeNull();
  });

  test('a lost fetch is tried once more 1.5 s later; lost twice the load fails, and the next load fetches again', async () => {
    jest.useFakeTimers();
    const { code, tries } = network();
    const load = code.load('accountFlows');
    const failed = expect(load).rejects.toThrow('lost again');
    tries[0]!.answer.reject(new Error('lost'));
    await jest.advanceTimersByTimeAsync(CHUNK_RETRY_MS - 1);
    expect(tries).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(tries).toHaveLength(2);
    tries[1]!.answer.reject(new Error('lost again'));
    await failed;
    expect(code.here('accountFlows')).toBeNull();

    // The payer's retry: a fresh fetch, which comes.
    const again = code.load('accountFlows');
    expect(tries).toHaveLength(3);
    const module = { views: {} };
    tries[2]!.answer.resolve(module);
    await expect(again).resolves.toBe(module);
  });

  test('the retry that comes is the load', async () => {
    jest.useFakeTimers();
    const { code, tries } = network();
    const load = code.load('signInForm');
    tries[0]!.answer.reject(new Error('lost'));
    await jest.advanceTimersByTimeAsync(CHUNK_RETRY_MS);
    const module = { views: {} };
    tries[1]!.answer.resolve(module);
    await expect(load).resolves.toBe(module);
    expect(code.here('signInForm')).toBe(module);
  });
});

describe("the machines' loadCode (actors/code.ts)", () => {
  test('the chunks asked for, each with its children made once, from the modules webpack (here jest) brings', async () => {
    const code = pageCode();
    const made: Chunk[] = [];
    const logicOf = madeOnce((chunk, module) => {
      made.push(chunk);
      return module.children;
    });
    const load = (chunks: Chunk[]) => createActor(defineLoadCode(code, logicOf), { input: { chunks } }).start();
    const first = load(['paying', 'signInForm']);
    await flush();
    const output = first.getSnapshot().output as LoadedCode;
    expect(Object.keys(output).sort()).toEqual(['paying', 'signInForm']);
    expect(output.paying!.payment.id).toBe('payment');
    expect(output.signInForm!.signIn.id).toBe('signIn');
    const again = load(['signInForm']);
    await flush();
    expect((again.getSnapshot().output as LoadedCode).signInForm).toBe(output.signInForm);
    expect(made).toEqual(['paying', 'signInForm']);
  });
});

/** The checkout whose `loadCode` the test answers: each load waits for `loads.last.answer`. */
function checkout(input: Partial<CheckoutInput> = {}, { resuming = false } = {}) {
  const inert = inertCheckoutChildren();
  const loads = fakeRequest<LoadedCode, { chunks: readonly Chunk[] }>();
  // What the inert children's loader gives for each chunk, handed over when the test answers.
  const given = async (chunks: readonly Chunk[]) => createActor(inert.actors.loadCode, { input: { chunks } }).start();
  const logic = checkoutMachine.provide({
    actors: { checkEmail: inert.checkEmail.logic, loadCode: loads.logic },
    actions: resuming ? resumeAfterReload.actions : {},
    guards: resuming ? resumeAfterReload.guards : {},
  });
  const actor = createActor(logic, { input: { bill: aBill({ info: { Email: 'payer@example.com' } }), user: null, isDesktop: true, ...input } }).start();
  /** The last load answered with its chunks' (inert) children. */
  const arrive = async () => {
    const loader = await given(loads.last.input.chunks);
    await flush();
    loads.last.answer.resolve(loader.getSnapshot().output as LoadedCode);
    await flush();
  };
  const lose = async () => {
    loads.last.answer.reject(new Error('the chunk was lost, and its retry'));
    await flush();
  };
  const snapshot = () => actor.getSnapshot();
  return { actor, loads, arrive, lose, snapshot, inert };
}

describe("a step the payer asks for, whose chunk is not here yet ('opening')", () => {
  test("Continue: the step's place says it is loading, Back stays; the chunk comes and the step opens with its children", async () => {
    const { actor, loads, arrive, snapshot, inert } = checkout();
    actor.send({ type: 'checkout.continue' });
    expect(loads.last.input).toEqual({ chunks: ['paying'] });
    expect(snapshot().hasTag('loading step')).toBe(true);
    expect(snapshot().context).toMatchObject({ step: 'guest', goingTo: 'choosePaymentType', history: ['guest'] });
    expect(inert.offer.runs).toHaveLength(0);
    await arrive();
    expect(snapshot().value).toEqual({ choosePaymentType: 'choosing' });
    expect(snapshot().context).toMatchObject({ step: 'choosePaymentType', goingTo: null });
    expect(snapshot().children.offer).toBeDefined();
    expect(inert.offer.runs).toHaveLength(1);
  });

  test('lost after its retry: the error with a retry; the retry loads it again and the step opens', async () => {
    const { actor, loads, arrive, lose, snapshot } = checkout();
    actor.send({ type: 'checkout.continue' });
    await lose();
    expect(snapshot().hasTag('step code failed')).toBe(true);
    expect(snapshot().hasTag('loading step')).toBe(false);
    expect(snapshot().context.step).toBe('guest');
    actor.send({ type: 'code.retry' });
    expect(loads.calls).toHaveLength(2);
    expect(snapshot().hasTag('loading step')).toBe(true);
    await arrive();
    expect(snapshot().context.step).toBe('choosePaymentType');
  });

  test('lost: Back returns to the step on screen, and asking again loads again', async () => {
    const { actor, loads, arrive, lose, snapshot } = checkout();
    actor.send({ type: 'checkout.continue' });
    await lose();
    actor.send({ type: 'nav.back' });
    expect(snapshot().value).toEqual({ guest: 'editing' });
    expect(snapshot().context).toMatchObject({ step: 'guest', history: [] });
    actor.send({ type: 'checkout.continue' });
    expect(loads.calls).toHaveLength(2);
    await arrive();
    expect(snapshot().context.step).toBe('choosePaymentType');
  });

  test('once here, the chunk is kept: Back and Continue again open the step at once, loading nothing', async () => {
    const { actor, loads, arrive, snapshot } = checkout();
    actor.send({ type: 'checkout.continue' });
    await arrive();
    actor.send({ type: 'nav.back' });
    expect(snapshot().context.step).toBe('guest');
    actor.send({ type: 'checkout.continue' });
    expect(snapshot().context.step).toBe('choosePaymentType');
    expect(loads.calls).toHaveLength(1);
  });

  test("a link to a step of another chunk loads that one: the points' step brings the account flows", async () => {
    const { actor, loads, arrive, snapshot, inert } = checkout({ bill: aBill({ pointsEnabled: true, usefulPoints: 3000, info: { CustNo: 'C-1' } }) });
    actor.send({ type: 'nav.goTo', step: 'usePoints' });
    expect(loads.last.input).toEqual({ chunks: ['accountFlows'] });
    await arrive();
    expect(snapshot().value).toEqual({ usePoints: 'choosing' });
    expect(inert.pointsCode.runs).toHaveLength(1);
  });
});

describe('the page opening on a later step', () => {
  const sbpOpen = (bill: Bill): Bill => {
    const sbp = bill.cardTypes.find((type) => type.Code === 'SBP')!;
    return { ...bill, openAttempt: { orderId: 'order-1', cardTypeOID: sbp.OID, code: 'SBP', status: 'created', pointsUsed: 0, sbp: { payload: 'p', qrcId: 'qrc-1', image: 'i' } } };
  };

  test('a reload on the QR: its chunk first (the address bar keeps its step meanwhile), then the step resumes with its polling', async () => {
    const { loads, arrive, snapshot, inert } = checkout({ bill: sbpOpen(aBill()), resumePath: '/sbp' }, { resuming: true });
    expect(snapshot().value).toEqual({ opening: 'loading' });
    expect(snapshot().context.goingTo).toBeNull();
    expect(loads.last.input).toEqual({ chunks: ['paying'] });
    await arrive();
    expect(snapshot().context).toMatchObject({ step: 'sbp', history: ['guest', 'choosePaymentType'] });
    expect(inert.paymentStatus.last.input).toMatchObject({ transactionID: 'qrc-1' });
  });

  test("a retry's way to pay: its chunk first", async () => {
    const bill = aBill();
    const { loads, arrive, snapshot } = checkout({ bill: { ...bill, retry: { cardTypeOID: bill.cardTypes[0]!.OID, email: 'p@example.com', ownAttempt: true, amount: 1, reason: null } } });
    expect(loads.last.input).toEqual({ chunks: ['paying'] });
    await arrive();
    expect(snapshot().context.step).toBe('choosePaymentType');
  });

  test('lost after its retry: the error with a retry, which resumes the step', async () => {
    const { actor, lose, arrive, snapshot } = checkout({ bill: sbpOpen(aBill()), resumePath: '/sbp' }, { resuming: true });
    await lose();
    expect(snapshot().hasTag('step code failed')).toBe(true);
    actor.send({ type: 'code.retry' });
    await arrive();
    expect(snapshot().context.step).toBe('sbp');
  });

  test('the first step, or a reload on it, loads nothing: its code is in the first scripts', () => {
    for (const resumePath of [null, '/noReg']) {
      const { loads, snapshot } = checkout({ resumePath }, { resuming: true });
      expect(loads.calls).toHaveLength(0);
      expect(snapshot().value).toEqual({ guest: 'editing' });
    }
  });
});

describe("the account route's sign-in form", () => {
  test('its chunk first, the placeholder meanwhile; lost, its place says so until the retry brings it', async () => {
    const { actor, loads, lose, arrive, snapshot, inert } = checkout({ bill: accountBill() });
    expect(snapshot().value).toEqual({ account: { signInForm: 'loading' } });
    expect(loads.last.input).toEqual({ chunks: ['signInForm'] });
    await lose();
    expect(snapshot().hasTag('form code failed')).toBe(true);
    expect(snapshot().children.signIn).toBeUndefined();
    actor.send({ type: 'code.retry' });
    await arrive();
    expect(snapshot().value).toEqual({ account: { signInForm: 'shown' } });
    expect(inert.signIn.runs).toHaveLength(1);
  });
});

describe("a paid bill's receipt", () => {
  function paidApp() {
    const loadBill = fakeRequest<Bill, { billLink: string }>();
    const loadUser = fakeRequest<LoyaltyUser | null, void>();
    const loads = fakeRequest<LoadedCode, { chunks: readonly Chunk[] }>();
    const app = createActor(
      appMachine.provide({
        actors: { loadBill: loadBill.logic, loadUser: loadUser.logic, loadCode: loads.logic, checkout: fakeCallback().logic as never },
        actions: { 'show data error title': () => undefined, 'log error': () => undefined },
      }),
      { input: { billLink: 'bill-1', isDesktop: true } },
    ).start();
    loadUser.last.answer.resolve(null);
    loadBill.last.answer.reject(new ApiError('Счет уже оплачен', 409, { success: false, paid: true }));
    return { app, loads };
  }

  test('its chunk first (the page is still loading), then shown; lost, the error with a retry that brings it', async () => {
    const { app, loads } = paidApp();
    await flush();
    expect(app.getSnapshot().value).toEqual({ paid: 'loading' });
    expect(app.getSnapshot().hasTag('loading')).toBe(true);
    expect(loads.last.input).toEqual({ chunks: ['paidBill'] });
    loads.last.answer.reject(new Error('lost'));
    await flush();
    expect(app.getSnapshot().hasTag('code failed')).toBe(true);
    expect(app.getSnapshot().hasTag('loading')).toBe(false);
    app.send({ type: 'code.retry' });
    expect(loads.calls).toHaveLength(2);
    loads.last.answer.resolve({ paidBill: {} });
    await flush();
    expect(app.getSnapshot().value).toEqual({ paid: 'shown' });
    expect(app.getSnapshot().hasTag('paid')).toBe(true);
  });
});

test("a child's name among the checkout's actors is for its type only: run by that name, it fails loudly", async () => {
  // The default in setup() stands for the payment machine's type; it is a promise that rejects.
  const named = createActor(checkoutMachine.implementations.actors.payment as unknown as PromiseActorLogic<void>).start();
  await flush();
  const snapshot = named.getSnapshot();
  expect(snapshot.status).toBe('error');
  expect(String(snapshot.error)).toMatch(/started from its chunk's logic, never by its name/);
});
