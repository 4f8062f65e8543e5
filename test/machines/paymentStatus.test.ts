import { createActor, SimulatedClock } from 'xstate';
import { MAX_RETRY_PAUSE_MS, paymentStatusMachine, SLOW_AFTER_MS, SLOW_POLL_MS, STATUS_POLL_MS, type PaymentStatusInput } from '../../src/machines/paymentStatus';
import { ApiError } from '../../src/services/http';
import type { PaymentStatusResponse } from '../../src/services/types';
import type { Dependencies } from '../../src/actors/dependencies';
import { definePaymentStatusActor } from '../../src/actors/paymentStatus';
import { fakeCallback, fakeRequest, flush } from '../fixtures/fakes';
import { aReceipt } from '../fixtures/receipt';

const input = { transactionID: 'tx-1', billOID: 'bill-1' };
const created: PaymentStatusResponse = { status: 'created', objectOID: 'bill-1' };

function start(options: Partial<PaymentStatusInput> = {}) {
  const fetchStatus = fakeRequest<PaymentStatusResponse, PaymentStatusInput>();
  const visibility = fakeCallback<void>();
  const connection = fakeCallback<void>();
  const failures: unknown[] = [];
  const clock = new SimulatedClock();
  const actor = createActor(
    paymentStatusMachine.provide({
      actors: { fetchStatus: fetchStatus.logic, watchVisibility: visibility.logic, watchConnection: connection.logic },
      actions: { 'log poll failure': (_, { error }) => failures.push(error) },
    }),
    { input: { ...input, ...options }, clock },
  ).start();
  const answer = async (response: PaymentStatusResponse) => {
    fetchStatus.last.answer.resolve(response);
    await flush();
  };
  const fail = async (error: unknown) => {
    fetchStatus.last.answer.reject(error);
    await flush();
  };
  /** What the tab's visibility watcher reports, as the real one does through sendBack. */
  const tab = (state: 'hidden' | 'visible') => visibility.last.sendBack({ type: `visibility.${state}` });
  /** What the connection watcher reports (the browser's online and offline events). */
  const network = (state: 'offline' | 'online') => connection.last.sendBack({ type: `connection.${state}` });
  return { actor, fetchStatus, visibility, connection, failures, clock, answer, fail, tab, network };
}

test('asks for the status of the transaction at once, then every 5000 ms while it is created', async () => {
  const { actor, fetchStatus, clock, answer } = start();
  expect(actor.getSnapshot().value).toBe('checking');
  expect(actor.getSnapshot().hasTag('created')).toBe(true);
  expect(fetchStatus.calls.map((c) => c.input)).toEqual([input]);

  await answer(created);
  expect(actor.getSnapshot().value).toBe('waiting');
  expect(actor.getSnapshot().context.status).toBe('created');
  clock.increment(STATUS_POLL_MS - 1);
  expect(fetchStatus.calls).toHaveLength(1);
  clock.increment(1);
  expect(fetchStatus.calls).toHaveLength(2);
  expect(actor.getSnapshot().value).toBe('checking');

  await answer({ status: null, objectOID: 'bill-1' });
  expect(actor.getSnapshot().value).toBe('waiting');
  clock.increment(STATUS_POLL_MS);
  expect(fetchStatus.calls).toHaveLength(3);
});

test.each([
  ['success', 'success'],
  ['declined', 'declined'],
  // Paid twice: the bill was paid by another payment and this one's money returned.
  ['refunded', 'refunded'],
] as const)('stops on %s: no further request, the output says so, the watcher is stopped', async (status, tag) => {
  const { actor, fetchStatus, visibility, clock, answer } = start();
  await answer(created);
  clock.increment(STATUS_POLL_MS);
  await answer({ status, objectOID: 'bill-1' });
  const snapshot = actor.getSnapshot();
  expect(snapshot.status).toBe('done');
  expect(snapshot.value).toBe(status);
  expect(snapshot.hasTag(tag)).toBe(true);
  expect(snapshot.context.status).toBe(status);
  expect(snapshot.output).toEqual({ status });
  expect(visibility.last.stopped).toBe(true);
  clock.increment(10 * STATUS_POLL_MS);
  expect(fetchStatus.calls).toHaveLength(2);
});

test("'Заказ не найден' when the status has no objectOID", async () => {
  const { actor, answer } = start();
  await answer({ status: 'success' });
  expect(actor.getSnapshot().value).toBe('orderNotFound');
  expect(actor.getSnapshot().hasTag('order not found')).toBe(true);
  expect(actor.getSnapshot().output).toEqual({ status: 'order not found' });
});

test('a 404 answer means the document is not found, and polling stops', async () => {
  const { actor, failures, fail, clock, fetchStatus } = start();
  await fail(new ApiError('Not found', 404));
  expect(actor.getSnapshot().value).toBe('documentNotFound');
  expect(actor.getSnapshot().hasTag('document not found')).toBe(true);
  expect(actor.getSnapshot().output).toEqual({ status: 'document not found' });
  expect(failures).toEqual([]);
  clock.increment(MAX_RETRY_PAUSE_MS);
  expect(fetchStatus.calls).toHaveLength(1);
});

test('a failed poll is logged and polling goes on, first at the usual pace, then with a pause that grows to a minute', async () => {
  const { actor, failures, fail, answer, clock, fetchStatus } = start();
  const pauses: number[] = [];
  const errors = [new ApiError('Bad gateway', 502), new ApiError('offline', 0), new Error('boom'), new ApiError('x', 500), new ApiError('x', 500), new ApiError('x', 500)];
  for (const error of errors) {
    await fail(error);
    expect(actor.getSnapshot().value).toBe('retrying');
    expect(actor.getSnapshot().hasTag('created')).toBe(true);
    const before = fetchStatus.calls.length;
    let waited = 0;
    while (fetchStatus.calls.length === before) {
      clock.increment(1000);
      waited += 1000;
    }
    pauses.push(waited);
  }
  expect(failures).toEqual(errors);
  expect(pauses).toEqual([STATUS_POLL_MS, 10_000, 20_000, 40_000, MAX_RETRY_PAUSE_MS, MAX_RETRY_PAUSE_MS]);

  // One good answer ends the growing pauses: the regular pace again, which past two minutes is the slow bank's.
  await answer(created);
  expect(actor.getSnapshot().context.failures).toBe(0);
  expect(actor.getSnapshot().context.slow).toBe(true);
  clock.increment(SLOW_POLL_MS);
  expect(fetchStatus.calls).toHaveLength(errors.length + 2);
});

test('no request overlaps another, however slow the answers are', async () => {
  const { fetchStatus, clock, answer, fail } = start();
  clock.increment(10 * STATUS_POLL_MS);
  expect(fetchStatus.calls).toHaveLength(1);
  await answer(created);
  clock.increment(STATUS_POLL_MS);
  clock.increment(10 * STATUS_POLL_MS);
  await fail(new Error('slow and failed'));
  clock.increment(MAX_RETRY_PAUSE_MS);
  clock.increment(MAX_RETRY_PAUSE_MS);
  expect(fetchStatus.maxInFlight).toBe(1);
  expect(fetchStatus.calls).toHaveLength(3);
});

/** While waiting, what stops the polls (a hidden tab, a lost connection), the state and tag it shows, and what brings them back. */
type Away = (run: ReturnType<typeof start>) => void;
test.each<[string, Away, string, string, Away]>([
  ['the tab is hidden', ({ tab }) => tab('hidden'), 'paused', 'created', ({ tab }) => tab('visible')],
  ['the connection is gone (the state says offline)', ({ network }) => network('offline'), 'offline', 'offline', ({ network }) => network('online')],
])('while %s no poll goes out; back, a poll at once', async (_, leave, state, tag, come) => {
  const run = start();
  const { actor, fetchStatus, clock, answer } = run;
  await answer(created);
  leave(run);
  expect(actor.getSnapshot().value).toBe(state);
  expect(actor.getSnapshot().hasTag(tag as never)).toBe(true);
  clock.increment(10 * STATUS_POLL_MS);
  expect(fetchStatus.calls).toHaveLength(1);

  come(run);
  expect(actor.getSnapshot().value).toBe('checking');
  expect(fetchStatus.calls).toHaveLength(2);
  await answer({ status: 'success', objectOID: 'bill-1' });
  expect(actor.getSnapshot().value).toBe('success');
});

test('a tab hidden during a request lets that request finish, then pauses', async () => {
  const { actor, fetchStatus, clock, answer, tab } = start();
  tab('hidden');
  expect(actor.getSnapshot().value).toBe('checking');
  await answer(created);
  expect(actor.getSnapshot().value).toBe('paused');
  clock.increment(10 * STATUS_POLL_MS);
  expect(fetchStatus.calls).toHaveLength(1);
  tab('visible');
  expect(fetchStatus.calls).toHaveLength(2);
});

test('a tab hidden and shown again during a request does not pause', async () => {
  const { actor, answer, tab } = start();
  tab('hidden');
  tab('visible');
  await answer(created);
  expect(actor.getSnapshot().value).toBe('waiting');
});

test('a tab hidden after a failure pauses the retry too', async () => {
  const { actor, fetchStatus, clock, fail, tab } = start();
  await fail(new Error('down'));
  tab('hidden');
  expect(actor.getSnapshot().value).toBe('paused');
  clock.increment(MAX_RETRY_PAUSE_MS);
  expect(fetchStatus.calls).toHaveLength(1);
  tab('visible');
  expect(fetchStatus.calls).toHaveLength(2);
});

test('showing a tab that was never hidden changes nothing', async () => {
  const { actor, fetchStatus, answer, tab } = start();
  await answer(created);
  tab('visible');
  expect(actor.getSnapshot().value).toBe('waiting');
  expect(fetchStatus.calls).toHaveLength(1);
});

describe('on a phone the payer is in the bank app while the tab is hidden', () => {
  test('polling goes on while the tab is hidden, every 5000 ms', async () => {
    const { actor, fetchStatus, clock, answer, tab } = start({ keepPollingWhenHidden: true });
    await answer(created);
    tab('hidden');
    expect(actor.getSnapshot().value).toBe('waiting');
    clock.increment(STATUS_POLL_MS);
    expect(fetchStatus.calls).toHaveLength(2);
    await answer(created);
    clock.increment(STATUS_POLL_MS);
    expect(fetchStatus.calls).toHaveLength(3);
    await answer({ status: 'success', objectOID: 'bill-1' });
    expect(actor.getSnapshot().status).toBe('done');
  });

  test('coming back asks at once, without waiting for the timer a frozen page slept through', async () => {
    const { actor, fetchStatus, clock, answer, tab } = start({ keepPollingWhenHidden: true });
    await answer(created);
    tab('hidden');
    clock.increment(1000);
    tab('visible');
    expect(actor.getSnapshot().value).toBe('checking');
    expect(fetchStatus.calls).toHaveLength(2);
    await answer(created);
    // The pace starts again from the answer: no second request at the old timer's time.
    clock.increment(STATUS_POLL_MS - 1);
    expect(fetchStatus.calls).toHaveLength(2);
    clock.increment(1);
    expect(fetchStatus.calls).toHaveLength(3);
  });

  test('coming back after a failed poll asks at once too, not after the retry pause', async () => {
    const { actor, fetchStatus, answer, fail, tab } = start({ keepPollingWhenHidden: true });
    await fail(new ApiError('Сбой', 500));
    expect(actor.getSnapshot().value).toBe('retrying');
    tab('hidden');
    expect(actor.getSnapshot().value).toBe('retrying');
    tab('visible');
    expect(fetchStatus.calls).toHaveLength(2);
    await answer({ status: 'declined', objectOID: 'bill-1' });
    expect(actor.getSnapshot().output).toEqual({ status: 'declined' });
  });

  test('a request in flight when the payer comes back is not doubled', async () => {
    const { fetchStatus, answer, tab } = start({ keepPollingWhenHidden: true });
    tab('hidden');
    tab('visible');
    expect(fetchStatus.calls).toHaveLength(1);
    expect(fetchStatus.maxInFlight).toBe(1);
    await answer(created);
    expect(fetchStatus.calls).toHaveLength(1);
  });
});

test('the default effects fail loudly when not provided', () => {
  const actor = createActor(paymentStatusMachine, { input });
  const errors: unknown[] = [];
  actor.subscribe({ error: (error) => errors.push(error) });
  actor.start();
  expect(String(errors[0])).toMatch(/is not provided/);
});

describe('with the real wiring (definePaymentStatusActor)', () => {
  /** A document whose visibility the test sets; only what the watcher reads, and no page config (the page's own pace). */
  function fakeDocument() {
    const target = new EventTarget() as EventTarget & { visibilityState: DocumentVisibilityState; querySelector: () => null };
    target.visibilityState = 'visible';
    target.querySelector = () => null;
    return target;
  }

  /** A page whose config meta tag sets the poll interval. */
  function pageWithPollMs(pollMs: number) {
    const doc = document.implementation.createHTMLDocument('');
    const meta = doc.createElement('meta');
    meta.name = 'config';
    meta.content = JSON.stringify({ pollMs });
    doc.head.appendChild(meta);
    return doc;
  }

  test("asks at the pace the page's configuration sets (the tests' journeys), and slows down after two minutes all the same", async () => {
    const getResult = jest.fn(async (): Promise<PaymentStatusResponse> => created);
    const clock = new SimulatedClock();
    const deps = { api: { getResult }, log: jest.fn(), doc: pageWithPollMs(200) } as unknown as Dependencies;
    const actor = createActor(definePaymentStatusActor(deps), { input, clock }).start();
    await flush();
    expect(getResult).toHaveBeenCalledTimes(1);
    clock.increment(199);
    expect(getResult).toHaveBeenCalledTimes(1);
    clock.increment(1);
    expect(getResult).toHaveBeenCalledTimes(2);
    await flush();
    for (let t = 200; t < SLOW_AFTER_MS; t += 200) {
      clock.increment(200);
      await flush();
    }
    expect(actor.getSnapshot().context.slow).toBe(true);
    const before = getResult.mock.calls.length;
    clock.increment(SLOW_POLL_MS - 1);
    await flush();
    expect(getResult).toHaveBeenCalledTimes(before);
    clock.increment(1);
    expect(getResult).toHaveBeenCalledTimes(before + 1);
    actor.stop();
  });

  test('reads the tab visibility from the document and calls getResult with the transaction and bill', async () => {
    const doc = fakeDocument();
    const getResult = jest.fn(async (): Promise<PaymentStatusResponse> => created);
    const log = jest.fn();
    const clock = new SimulatedClock();
    const deps = { api: { getResult }, log, doc } as unknown as Dependencies;
    const actor = createActor(definePaymentStatusActor(deps), { input, clock }).start();
    await flush();
    expect(getResult).toHaveBeenCalledWith('tx-1', 'bill-1');
    expect(actor.getSnapshot().value).toBe('waiting');

    doc.visibilityState = 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
    expect(actor.getSnapshot().value).toBe('paused');
    clock.increment(STATUS_POLL_MS * 3);
    expect(getResult).toHaveBeenCalledTimes(1);

    doc.visibilityState = 'visible';
    doc.dispatchEvent(new Event('visibilitychange'));
    expect(getResult).toHaveBeenCalledTimes(2);

    getResult.mockRejectedValueOnce(new ApiError('down', 500));
    await flush();
    clock.increment(STATUS_POLL_MS);
    await flush();
    expect(log).toHaveBeenCalledWith(expect.objectContaining({ message: 'down' }));
    actor.stop();
  });
});

describe('the connection', () => {
  test('no status is known before the first answer; the first answer makes it known', async () => {
    const { actor, answer } = start();
    expect(actor.getSnapshot().context.answered).toBe(false);
    await answer(created);
    expect(actor.getSnapshot().context.answered).toBe(true);
  });

  test('gone while a poll is in flight: its failure waits for the connection instead of retrying', async () => {
    const { actor, fetchStatus, clock, fail, network } = start();
    network('offline');
    expect(actor.getSnapshot().value).toBe('checking');
    await fail(new ApiError('Failed to fetch', 0));
    expect(actor.getSnapshot().value).toBe('offline');
    clock.increment(MAX_RETRY_PAUSE_MS);
    expect(fetchStatus.calls).toHaveLength(1);
    network('online');
    expect(fetchStatus.calls).toHaveLength(2);
  });

  test('the watcher stops with polling', async () => {
    const { answer, connection } = start();
    await answer({ status: 'declined', objectOID: 'bill-1' });
    expect(connection.last.stopped).toBe(true);
  });
});

describe('the connection watcher of the page (wiring)', () => {
  test("reports the browser's offline and online events, and offline at once when the page starts without one", () => {
    const win = new EventTarget() as EventTarget & { navigator: { onLine: boolean } };
    win.navigator = { onLine: false };
    const doc = Object.assign(new EventTarget(), { defaultView: win, visibilityState: 'visible', querySelector: () => null }) as unknown as Document;
    const logic = definePaymentStatusActor({ doc, log: () => undefined, api: { getResult: () => new Promise(() => undefined) } } as unknown as Dependencies);
    const actor = createActor(logic, { input }).start();
    // Started offline: the request already in flight is let be; its outcome waits for the connection.
    expect(actor.getSnapshot().context.offline).toBe(true);
    win.dispatchEvent(new Event('online'));
    expect(actor.getSnapshot().context.offline).toBe(false);
    win.dispatchEvent(new Event('offline'));
    expect(actor.getSnapshot().context.offline).toBe(true);
    actor.stop();
  });
});

describe('the receipt and a slow bank', () => {
  const receipt = aReceipt({ orderId: 'tx-1', amount: 1500.5, method: { code: 'SBP', name: 'СБП' }, email: 'iv***@mail.ru', fiscal: true });

  test('a final answer keeps the server\'s receipt', async () => {
    const { actor, answer } = start();
    await answer({ status: 'success', objectOID: 'bill-1', receipt });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().context.receipt).toEqual(receipt);
  });

  test('still created after two minutes: slow, asked every 15 s from then on, and a late success still lands', async () => {
    const { actor, fetchStatus, clock, answer } = start();
    await answer(created);
    for (let t = STATUS_POLL_MS; t < SLOW_AFTER_MS; t += STATUS_POLL_MS) {
      clock.increment(STATUS_POLL_MS);
      await answer(created);
    }
    expect(actor.getSnapshot().context.slow).toBe(false);
    const asked = fetchStatus.calls.length;
    clock.increment(STATUS_POLL_MS);
    expect(actor.getSnapshot().context.slow).toBe(true);
    await answer(created);
    clock.increment(STATUS_POLL_MS);
    expect(fetchStatus.calls).toHaveLength(asked + 1);
    clock.increment(SLOW_POLL_MS - STATUS_POLL_MS);
    expect(fetchStatus.calls).toHaveLength(asked + 2);
    await answer({ status: 'success', objectOID: 'bill-1', receipt });
    expect(actor.getSnapshot().hasTag('success')).toBe(true);
  });
});

describe('a hold on the card (a bill the merchant captures by hand)', () => {
  const held: PaymentStatusResponse = { status: 'held', objectOID: 'bill-1', hold: { amount: 150000, until: '2026-12-02T09:00:00.000Z' } };

  test('held: the amount and its end kept, polling goes on at the slow pace, and the capture lands with its receipt', async () => {
    const { actor, fetchStatus, clock, answer } = start();
    await answer(held);
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(actor.getSnapshot().context).toMatchObject({ status: 'held', hold: held.hold, answered: true });
    // The merchant's capture may take days: asked every 15 s, not 5.
    clock.increment(STATUS_POLL_MS);
    expect(fetchStatus.calls).toHaveLength(1);
    clock.increment(SLOW_POLL_MS - STATUS_POLL_MS);
    expect(fetchStatus.calls).toHaveLength(2);
    await answer(held);
    clock.increment(SLOW_POLL_MS);
    const receipt = aReceipt({ amount: 100000 });
    await answer({ status: 'success', objectOID: 'bill-1', receipt });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({ status: 'success' });
    expect(actor.getSnapshot().context.receipt).toEqual(receipt);
  });

  test('released: polling ends, and the hold is no longer said', async () => {
    const { actor, fetchStatus, clock, answer } = start();
    await answer(held);
    clock.increment(SLOW_POLL_MS);
    await answer({ status: 'released', objectOID: 'bill-1' });
    expect(actor.getSnapshot().value).toBe('released');
    expect(actor.getSnapshot().hasTag('released')).toBe(true);
    expect(actor.getSnapshot().output).toEqual({ status: 'released' });
    expect(actor.getSnapshot().context.hold).toBeNull();
    clock.increment(MAX_RETRY_PAUSE_MS);
    expect(fetchStatus.calls).toHaveLength(2);
  });
});
