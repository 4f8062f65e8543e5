/** An action confirmed first (a refund, a capture, a release, a handover): what to do, a confirmation in words, the server; one key per dialog. */
import { assign, createActor } from 'xstate';
import { paymentActionMachine, type PerformInput } from '../../../src/desk/machines/paymentAction';
import type { DeskAction } from '../../../src/desk/services/types';
import { DeskApiError } from '../../../src/desk/services/http';
import { fakeRequest } from '../../fixtures/fakes';
import { settle } from '../../fixtures/accountFlows';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const REFUND: DeskAction = { kind: 'refund', max: { value: '700.00', currency: 'RUB' } };

function start(action: DeskAction = REFUND, subject = 'order-1') {
  const perform = fakeRequest<unknown, PerformInput>();
  let keys = 0;
  const machine = paymentActionMachine.provide({
    actors: { perform: perform.logic },
    actions: { 'log error': () => {}, 'make idempotency key': assign({ idempotencyKey: () => `key-${++keys}` }) },
  });
  return { action: createActor(machine, { input: { subject, action } }).start(), perform };
}

test('an amount that is not one stays on the form; a readable one asks for confirmation, then goes to the server', async () => {
  const { action, perform } = start();
  action.send({ type: 'action.review', amountText: '3 00,5x', reason: '' });
  expect(action.getSnapshot().value).toBe('editing');
  expect(action.getSnapshot().context.unreadable).toBe(true);
  action.send({ type: 'action.review', amountText: '1 234,5', reason: '  Отказ ' });
  expect(action.getSnapshot().value).toBe('confirming');
  expect(action.getSnapshot().context.request).toEqual({ amountKopecks: 123_450, reason: 'Отказ' });
  action.send({ type: 'action.back' });
  action.send({ type: 'action.review', amountText: '', reason: '' });
  expect(action.getSnapshot().context.request.amountKopecks).toBeNull();
  action.send({ type: 'action.confirm' });
  expect(action.getSnapshot().hasTag('busy')).toBe(true);
  // Once asked, the server may be doing it: no cancelling.
  action.send({ type: 'action.cancel' });
  expect(action.getSnapshot().value).toBe('performing');
  perform.last.answer.reject(new DeskApiError('…', 409, 'refund_exceeds_remaining'));
  await settle();
  expect(action.getSnapshot().value).toBe('editing');
  expect(action.getSnapshot().context.problem?.code).toBe('refund_exceeds_remaining');
  action.send({ type: 'action.review', amountText: '100', reason: '' });
  action.send({ type: 'action.confirm' });
  perform.last.answer.resolve({});
  await settle();
  expect(action.getSnapshot().status).toBe('done');
  expect(action.getSnapshot().output).toEqual({ done: true });
  expect(perform.inputs.map((input) => [input.subject, input.action.kind, input.request.amountKopecks, input.idempotencyKey])).toEqual([
    ['order-1', 'refund', null, 'key-1'],
    ['order-1', 'refund', 10_000, 'key-1'],
  ]);
});

test('cancelled before it is asked: done, nothing sent', () => {
  const { action, perform } = start();
  action.send({ type: 'action.cancel' });
  expect(action.getSnapshot().output).toEqual({ done: false });
  expect(perform.calls).toHaveLength(0);
});

test('a capture asks how much (empty: all that is held), confirms it, and a refusal goes back to the amount', async () => {
  const { action, perform } = start({ kind: 'capture', max: { value: '50000.00', currency: 'RUB' } }, 'order-held');
  expect(action.getSnapshot().value).toBe('editing');
  action.send({ type: 'action.review', amountText: '30 000', reason: '' });
  expect(action.getSnapshot().value).toBe('confirming');
  action.send({ type: 'action.confirm' });
  perform.last.answer.reject(new DeskApiError('…', 409, 'capture_exceeds_held'));
  await settle();
  expect(action.getSnapshot().value).toBe('editing');
  expect(action.getSnapshot().context.problem?.code).toBe('capture_exceeds_held');
  action.send({ type: 'action.review', amountText: '', reason: '' });
  action.send({ type: 'action.confirm' });
  perform.last.answer.resolve({});
  await settle();
  expect(action.getSnapshot().output).toEqual({ done: true });
  expect(perform.inputs.map((input) => [input.subject, input.action.kind, input.request.amountKopecks, input.idempotencyKey])).toEqual([
    ['order-held', 'capture', 3_000_000, 'key-1'],
    ['order-held', 'capture', null, 'key-1'],
  ]);
});

test.each([
  ['release', 'order-held'],
  ['handover', 'bill-1'],
] as const)('a %s asks nothing: its confirmation comes first, a refusal stays on it, and going back cancels', async (kind, subject) => {
  const { action, perform } = start({ kind, max: { value: '50000.00', currency: 'RUB' } }, subject);
  expect(action.getSnapshot().value).toBe('confirming');
  action.send({ type: 'action.confirm' });
  expect(action.getSnapshot().hasTag('busy')).toBe(true);
  perform.last.answer.reject(new DeskApiError('…', 502, 'acquirer_unavailable'));
  await settle();
  expect(action.getSnapshot().value).toBe('confirming');
  expect(action.getSnapshot().context.problem?.code).toBe('acquirer_unavailable');
  // Tried again with the same key: the server does it once whatever happened to the first answer.
  action.send({ type: 'action.confirm' });
  perform.last.answer.resolve({});
  await settle();
  expect(action.getSnapshot().output).toEqual({ done: true });
  expect(perform.inputs.map((input) => [input.subject, input.action.kind, input.request.amountKopecks, input.idempotencyKey])).toEqual([
    [subject, kind, null, 'key-1'],
    [subject, kind, null, 'key-1'],
  ]);

  const again = start({ kind, max: { value: '50000.00', currency: 'RUB' } }, subject);
  again.action.send({ type: 'action.back' });
  expect(again.action.getSnapshot().output).toEqual({ done: false });
  expect(again.perform.calls).toHaveLength(0);
});
