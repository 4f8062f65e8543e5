import { FREE_CALL_LIMIT_MS, FREE_CALL_POLL_MS, freeCallMachine } from '../../src/machines/freeCall';
import { settle, startFlow } from '../fixtures/accountFlows';
import { fakeRequest } from '../fixtures/fakes';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

function start() {
  const lock = fakeRequest<boolean, { phone: string }>();
  const poll = fakeRequest<boolean, { phone: string }>();
  const reload = jest.fn();
  const log = jest.fn();
  const machine = freeCallMachine.provide({
    actors: { lockFreeCall: lock.logic, checkFreeCall: poll.logic },
    actions: { 'reload page': reload, 'log error': (_, { error }) => log(error) },
  });
  return { ...startFlow(machine, { phone: '79990000002' }), lock, poll, reload, log };
}

test('the lock is requested for the phone; false means nothing to wait for', async () => {
  const { flow, lock, poll, told } = start();
  expect(flow.getSnapshot().value).toBe('locking');
  expect(lock.inputs).toEqual([{ phone: '79990000002' }]);
  lock.last.answer.resolve(false);
  await settle();
  expect(flow.getSnapshot().value).toBe('notLocked');
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

test('after a true lock the call is polled every 5 s and the page reloads once it came in', async () => {
  const { flow, lock, poll, reload } = start();
  lock.last.answer.resolve(true);
  await settle();
  expect(flow.getSnapshot().hasTag('waiting for call')).toBe(true);
  expect(poll.inputs).toHaveLength(0);
  await settle(FREE_CALL_POLL_MS - 1);
  expect(poll.inputs).toHaveLength(0);
  await settle(1);
  expect(poll.inputs).toEqual([{ phone: '79990000002' }]);
  poll.last.answer.resolve(false);
  await settle(FREE_CALL_POLL_MS);
  expect(poll.inputs).toHaveLength(2);
  // A failed poll is logged and polling goes on.
  poll.last.answer.reject(new Error('blip'));
  await settle(FREE_CALL_POLL_MS);
  expect(poll.inputs).toHaveLength(3);
  poll.last.answer.resolve(true);
  await settle();
  expect(flow.getSnapshot().value).toBe('reloading');
  expect(reload).toHaveBeenCalledTimes(1);
});

test('after 60 s polling stops and the checkout hears freeCall.ended', async () => {
  const { flow, lock, poll, told, reload } = start();
  lock.last.answer.resolve(true);
  await settle();
  for (let i = 0; i < 11; i += 1) {
    await settle(FREE_CALL_POLL_MS);
    poll.last.answer.resolve(false);
  }
  await settle(FREE_CALL_POLL_MS);
  expect(flow.getSnapshot().value).toBe('ended');
  expect(told).toEqual([{ type: 'freeCall.ended' }]);
  const polls = poll.inputs.length;
  await settle(FREE_CALL_POLL_MS * 3);
  expect(poll.inputs).toHaveLength(polls);
  expect(reload).not.toHaveBeenCalled();
});
