import type { AnyActorRef, InspectionEvent } from 'xstate';
import { freePort } from '../../scripts/freePort';
import { inspectorOn, playPaths } from '../../scripts/inspectMoney';
import { billChart } from '../../server/lifecycle/bill';

/**
 * `npm run inspect:money` opens a money chart in the Stately inspector as `?inspect` does for the page's machines: each
 * model path plays on an actor of its own, inspected, and a local bridge embeds the inspector for the browser.
 */
test("the bill chart's model paths play on inspected actors, one each", async () => {
  const heard: InspectionEvent[] = [];
  const played = await playPaths(billChart, { next: (event) => void heard.push(event) }, 0);
  expect(played).toEqual([
    'payment.succeeded → goods.handedOver',
    'payment.succeeded (a part) → payment.succeeded',
    'payment.succeeded (a part) → payment.succeeded (a part)',
    'payment.succeeded (a part) → merchant.cancelled',
    'payment.succeeded (a part) → deadline.passed',
    'payment.held → payment.succeeded',
    'payment.held → payment.succeeded (a part)',
    'payment.held → payment.released',
    'merchant.cancelled',
    'deadline.passed',
  ]);
  const events = heard.flatMap((event) => (event.type === '@xstate.event' && event.event.type !== 'xstate.init' ? [event.event.type] : []));
  // Each path's events in turn, by type (a label names what kind of the event it is in brackets).
  expect(events).toEqual(played.flatMap((name) => name.split(' → ').map((label) => label.replace(/ \(.*\)$/, ''))));
  const actors = heard.filter((event) => event.type === '@xstate.actor').map((event) => event.actorRef as AnyActorRef);
  expect(actors.map((actor) => actor.id)).toEqual(played.map((name) => `bill: ${name}`));
  // Each ends in the state its path leads to.
  const ends = actors.map((actor) => (actor.getSnapshot() as { value: unknown }).value);
  expect(ends).toEqual(['handedOver', 'paid', 'partlyPaid', 'cancelled', 'expired', 'paid', 'paid', 'open', 'cancelled', 'expired']);
});

test('the bridge serves the inspector to the browser and stops', async () => {
  const port = await freePort();
  const inspector = await inspectorOn(port, false);
  try {
    let page = '';
    // The bridge listens as soon as its server is up.
    for (let tries = 0; !page && tries < 50; tries++) page = await fetch(`http://127.0.0.1:${port}/`).then((answer) => answer.text(), () => new Promise<string>((resolve) => setTimeout(() => resolve(''), 20)));
    expect(page).toContain('https://stately.ai/inspect');
    expect(page).toContain(`ws://localhost:${port}`);
  } finally {
    inspector.stop();
  }
});
