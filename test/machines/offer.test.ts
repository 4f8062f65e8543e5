import { createActor } from 'xstate';
import { offerMachine, type OfferRequest } from '../../src/machines/offer';
import { fakeRequest, flush } from '../fixtures/fakes';

function start() {
  const fetchOffer = fakeRequest<string, OfferRequest>();
  const logged: unknown[] = [];
  const actor = createActor(
    offerMachine.provide({ actors: { fetchOffer: fetchOffer.logic }, actions: { 'log error': (_, { error }) => void logged.push(error) } }),
    { input: { objectOID: 'bill-1' } },
  ).start();
  return { actor, fetchOffer, logged };
}

test('hidden until an agreement’s link asks; then loading with the offer request (kind, bill, type)', () => {
  const { actor, fetchOffer } = start();
  expect(actor.getSnapshot().value).toBe('hidden');
  expect(actor.getSnapshot().hasTag('open')).toBe(false);
  actor.send({ type: 'offer.open', kind: 'executor', cardTypeOID: 'type-card' });
  expect(actor.getSnapshot().hasTag('loading')).toBe(true);
  expect(actor.getSnapshot().hasTag('open')).toBe(true);
  expect(fetchOffer.last.input).toEqual({ kind: 'executor', objectOID: 'bill-1', cardTypeOID: 'type-card' });
});

test('the text arrives: shown; close hides it; opening again fetches afresh', async () => {
  const { actor, fetchOffer } = start();
  actor.send({ type: 'offer.open', kind: 'aggregator', cardTypeOID: 'type-card' });
  fetchOffer.last.answer.resolve('<p>Оферта</p>');
  await flush();
  expect(actor.getSnapshot().value).toBe('shown');
  expect(actor.getSnapshot().context.text).toBe('<p>Оферта</p>');
  actor.send({ type: 'offer.close' });
  expect(actor.getSnapshot().value).toBe('hidden');
  actor.send({ type: 'offer.open', kind: 'executor', cardTypeOID: 'type-card' });
  expect(actor.getSnapshot().context.text).toBeNull();
  expect(fetchOffer.calls).toHaveLength(2);
});

test('a refused request is logged and shows the failure; an empty text fails too', async () => {
  const { actor, fetchOffer, logged } = start();
  actor.send({ type: 'offer.open', kind: 'aggregator', cardTypeOID: 'type-card' });
  const error = new Error('404');
  fetchOffer.last.answer.reject(error);
  await flush();
  expect(actor.getSnapshot().value).toBe('failed');
  expect(logged).toEqual([error]);
  actor.send({ type: 'offer.close' });
  actor.send({ type: 'offer.open', kind: 'aggregator', cardTypeOID: 'type-card' });
  fetchOffer.last.answer.resolve('');
  await flush();
  expect(actor.getSnapshot().value).toBe('failed');
});

test('closing while loading drops the answer', async () => {
  const { actor, fetchOffer } = start();
  actor.send({ type: 'offer.open', kind: 'aggregator', cardTypeOID: 'type-card' });
  actor.send({ type: 'offer.close' });
  fetchOffer.last.answer.resolve('<p>late</p>');
  await flush();
  expect(actor.getSnapshot().value).toBe('hidden');
  expect(actor.getSnapshot().context.text).toBeNull();
});
