import { FREE_CALL_LIMIT_MS, FREE_CALL_POLL_MS, freeCallMachine } from '../../src/machines/freeCall';
import type { FreeCallNumber, FreeCallState } from '../../src/services/types';
import { settle, startFlow } from '../fixtures/accountFlows';
import { fakeRequest } from '../fixtures/fakes';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const NUMBER: FreeCallNumber = { callPhone: '78005008275', callPhonePretty: '+7 (800) 500-82-75' };

function start() {
  const lock = fakeRequest<FreeCallNumber | null, { phone: string }>();
  const poll = fakeRequest<FreeCallState, { phone: string }>();
  const reload = jest.fn();
  const log = jest.fn();
  const machine = freeCallMachine.provide({
    actors: { lockFreeCall: lock.logic, checkFreeCall: poll.logic },
    actions: { 'reload page': reload, 'log error': (_, { error }) => log(error) },
  });
  return { ...startFlow(machine, { phone: '79990000002' }), lock, poll, reload, log };
}

test('a check is started for the phone; no number means nothing to wait for', async () => {
  const { flow, lock, poll, told } = start();
  expect(flow.getSnapshot().value).toBe('locking');
  expect(flow.getSnapshot().hasTag('getting number')).toBe(true);
  expect(lock.inputs).toEqual([{ phone: '79990000002' }]);
  lock.last.answer.resolve(null);
  await settle();
  expect(flow.getSnapshot().value).toBe('notLocked');
  expect(flow.getSnapshot().context.number).toBeNull();
  await settle(FREE_CALL_LIMIT_MS);
  expect(poll.inputs).toEqual([]);
  expect(told).toEqual([]);
});

test('a failed lock is logged', async () => {
  const { flow, lock, log } = start();
  lock.last.answer.reject(new Error('offline'));
  await settle();
  expect(flow.getSnapshot().value).toBe('notLocked');
  expect(log).toHaveBeenCalledWith(new Error('offline'));
});

test('given a number, the check is polled every 5 s and the page reloads once the call confirmed it', async () => {
  const { flow, lock, poll, reload } = start();
  lock.last.answer.resolve(NUMBER);
  await settle();
  expect(flow.getSnapshot().hasTag('waiting for call')).toBe(true);
  expect(flow.getSnapshot().context.number).toEqual(NUMBER);
  expect(poll.inputs).toHaveLength(0);
  await settle(FREE_CALL_POLL_MS - 1);
  expect(poll.inputs).toHaveLength(0);
  await settle(1);
  expect(poll.inputs).toEqual([{ phone: '79990000002' }]);
  poll.last.answer.resolve('waiting');
  await settle(FREE_CALL_POLL_MS);
  expect(poll.inputs).toHaveLength(2);
  // A failed poll is logged and polling goes on.
  poll.last.answer.reject(new Error('blip'));
  await settle(FREE_CALL_POLL_MS);
  expect(poll.inputs).toHaveLength(3);
  poll.last.answer.resolve('confirmed');
  await settle();
  expect(flow.getSnapshot().value).toBe('reloading');
  expect(reload).toHaveBeenCalledTimes(1);
});

test('after 60 s polling stops and the checkout hears freeCall.ended', async () => {
  const { flow, lock, poll, told, reload } = start();
  lock.last.answer.resolve(NUMBER);
  await settle();
  for (let i = 0; i < 11; i += 1) {
    await settle(FREE_CALL_POLL_MS);
    poll.last.answer.resolve('waiting');
  }
  await settle(FREE_CALL_POLL_MS);
  expect(flow.getSnapshot().value).toBe('ended');
  expect(told).toEqual([{ type: 'freeCall.ended' }]);
  const polls = poll.inputs.length;
  await settle(FREE_CALL_POLL_MS * 3);
  expect(poll.inputs).toHaveLength(polls);
  expect(reload).not.toHaveBeenCalled();
});

test('the check ended at the provider (402): polling stops before the 60 s and the checkout hears freeCall.ended', async () => {
  const { flow, lock, poll, told } = start();
  lock.last.answer.resolve(NUMBER);
  await settle(FREE_CALL_POLL_MS);
  poll.last.answer.resolve('ended');
  await settle();
  expect(flow.getSnapshot().value).toBe('ended');
  expect(told).toEqual([{ type: 'freeCall.ended' }]);
  await settle(FREE_CALL_POLL_MS * 2);
  expect(poll.inputs).toHaveLength(1);
});

test('a call another page waited for too: nobody reloads, polling stops, and starting again starts a new check', async () => {
  const { flow, lock, poll, told, reload } = start();
  lock.last.answer.resolve(NUMBER);
  await settle(FREE_CALL_POLL_MS);
  poll.last.answer.resolve('conflict');
  await settle();
  expect(flow.getSnapshot().value).toBe('startAgain');
  expect(flow.getSnapshot().hasTag('start again')).toBe(true);
  await settle(FREE_CALL_LIMIT_MS);
  expect(poll.inputs).toHaveLength(1);
  expect(told).toEqual([]);
  expect(reload).not.toHaveBeenCalled();

  flow.send({ type: 'freeCall.restart' });
  expect(flow.getSnapshot().value).toBe('locking');
  expect(flow.getSnapshot().context.number).toBeNull();
  expect(lock.inputs).toHaveLength(2);
  lock.last.answer.resolve({ callPhone: '78005008276', callPhonePretty: '+7 (800) 500-82-76' });
  await settle();
  expect(flow.getSnapshot().context.number).toEqual({ callPhone: '78005008276', callPhonePretty: '+7 (800) 500-82-76' });
});
