import { createActor, waitFor } from 'xstate';
import { defineBankChoice } from '../../src/actors/bankChoice';
import { bankChoiceMachine } from '../../src/machines/bankChoice';
import type { Api } from '../../src/services/api';
import type { BrowserEnvironment } from '../../src/services/environment';
import type { SbpBank } from '../../src/services/sbpBanks';
import { fakeRequest, flush } from '../fixtures/fakes';

const bank = (id: string, name: string): SbpBank => ({ id, name, schema: `bank${id}`, package: null, webClientUrl: null, logo: null });
const BANKS = [bank('100000000003', 'Банк Синара'), bank('100000000004', 'Т-Банк'), bank('100000000111', 'Сбербанк'), bank('100000000025', 'МОСКОВСКИЙ КРЕДИТНЫЙ БАНК')];

function start(lastUsedBankId: string | null = null) {
  const loadBanks = fakeRequest<SbpBank[], void>();
  const remembered: string[] = [];
  const logged: unknown[] = [];
  const actor = createActor(
    bankChoiceMachine.provide({
      actors: { loadBanks: loadBanks.logic },
      actions: { 'remember bank': (_, { id }) => void remembered.push(id), 'log error': (_, { error }) => void logged.push(error) },
    }),
    { input: { lastUsedBankId, platform: 'ios' } },
  ).start();
  return { actor, loadBanks, remembered, logged };
}

test('loads the list at once and holds it in the payer\'s order: the last-used bank, the most used, then by name', async () => {
  const { actor, loadBanks } = start('100000000003');
  expect(actor.getSnapshot().hasTag('loading')).toBe(true);
  expect(loadBanks.calls).toHaveLength(1);
  loadBanks.last.answer.resolve(BANKS);
  await waitFor(actor, (state) => state.hasTag('list'));
  expect(actor.getSnapshot().context.banks.map((b) => b.name)).toEqual(['Банк Синара', 'Сбербанк', 'Т-Банк', 'МОСКОВСКИЙ КРЕДИТНЫЙ БАНК']);
  expect(actor.getSnapshot().context.platform).toBe('ios');
});

test('a tapped bank is remembered; the list keeps its order for this visit', async () => {
  const { actor, loadBanks, remembered } = start();
  loadBanks.last.answer.resolve(BANKS);
  await waitFor(actor, (state) => state.hasTag('list'));
  const before = actor.getSnapshot().context.banks;
  actor.send({ type: 'bank.choose', id: '100000000004' });
  expect(remembered).toEqual(['100000000004']);
  expect(actor.getSnapshot().context.banks).toBe(before);
});

test('a failed list is logged and leaves the step without a list', async () => {
  const { actor, loadBanks, logged, remembered } = start();
  loadBanks.last.answer.reject(new Error('503'));
  await waitFor(actor, (state) => state.hasTag('unavailable'));
  expect(logged).toEqual([new Error('503')]);
  actor.send({ type: 'bank.choose', id: '100000000004' });
  expect(remembered).toEqual([]);
});

test('an empty list is no list', async () => {
  const { actor, loadBanks, logged } = start();
  loadBanks.last.answer.resolve([]);
  await waitFor(actor, (state) => state.hasTag('unavailable'));
  expect(logged).toEqual([]);
});

test('the default effects fail loudly when not provided', async () => {
  const actor = createActor(bankChoiceMachine, { input: { lastUsedBankId: null, platform: 'other' } });
  const errors: unknown[] = [];
  actor.subscribe({ error: (error) => errors.push(error) });
  actor.start();
  await flush();
  // The stub list call fails, and so does the stub that would log it.
  expect(String(errors[0])).toMatch(/log error is not provided/);
});

describe('with the real wiring (defineBankChoice)', () => {
  function storage(initial: Record<string, string> = {}) {
    const items = new Map(Object.entries(initial));
    return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), items };
  }
  const env = (store: ReturnType<typeof storage>, platform: BrowserEnvironment['platform']) =>
    ({ isDesktop: false, isSafariDesktop: false, platform, storage: store, navigate: () => undefined, reload: () => undefined }) satisfies BrowserEnvironment;

  test('asks GET /api/sbp-banks through the api, reads and writes the last-used bank in this device\'s storage', async () => {
    const store = storage({ 'checkout.sbp.lastUsedBank': '100000000025' });
    const sbpBanks = jest.fn(async () => ({ updatedAt: '2026-04-29T04:16:10.452Z', banks: [...BANKS, { id: 'x', name: 'broken' }] }));
    const { logic, input } = defineBankChoice({ api: { sbpBanks } as unknown as Api, env: env(store, 'android'), log: () => undefined });
    expect(input).toEqual({ lastUsedBankId: '100000000025', platform: 'android' });
    const actor = createActor(logic, { input }).start();
    await waitFor(actor, (state) => state.hasTag('list'));
    expect(sbpBanks).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.banks.map((b) => b.id)).toEqual(['100000000025', '100000000111', '100000000004', '100000000003']);
    actor.send({ type: 'bank.choose', id: '100000000004' });
    expect(store.items.get('checkout.sbp.lastUsedBank')).toBe('100000000004');
  });

  test('a failing call is logged', async () => {
    const logged: unknown[] = [];
    const failure = new Error('network');
    const { logic, input } = defineBankChoice({
      api: { sbpBanks: async () => Promise.reject(failure) } as unknown as Api,
      env: env(storage(), 'ios'),
      log: (error) => void logged.push(error),
    });
    const actor = createActor(logic, { input }).start();
    await waitFor(actor, (state) => state.hasTag('unavailable'));
    await flush();
    expect(logged).toEqual([failure]);
  });
});
