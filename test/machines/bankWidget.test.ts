import { createActor, SimulatedClock } from 'xstate';
import { bankWidgetMachine, WIDGET_INIT_TIMEOUT_MS, type BankWidgetInput } from '../../src/machines/bankWidget';
import { fakeCallback } from '../fixtures/fakes';

const desktop: BankWidgetInput = { code: 'SberPaySite', bankInvoiceId: 'inv-1', orderId: 'order-1', billOid: 'bill-1', isDesktop: true };

function start(input: BankWidgetInput = desktop, { safari = false } = {}) {
  const widget = fakeCallback<BankWidgetInput>();
  const effects: { name: string; params: unknown }[] = [];
  const record = (name: string) => (_: unknown, params: unknown) => void effects.push({ name, params });
  const clock = new SimulatedClock();
  const actor = createActor(
    bankWidgetMachine.provide({
      actors: { widget: widget.logic },
      actions: {
        'redirect to widget': record('redirect to widget'),
        'open helper tab': record('open helper tab'),
        'go to return url': record('go to return url'),
        'log error': record('log error'),
      },
      guards: { 'is Safari desktop': () => safari },
    }),
    { input, clock },
  ).start();
  const report = (type: string) => widget.last.sendBack({ type });
  const names = () => effects.map((e) => e.name);
  return { actor, widget, effects, names, clock, report };
}

test('the initialisation time-out is 20000 ms', () => {
  expect(WIDGET_INIT_TIMEOUT_MS).toBe(20_000);
});

test('a phone leaves for the widget page: no overlay, no helper tab, no time-out', () => {
  const mobile = { ...desktop, isDesktop: false };
  const { actor, widget, effects, clock } = start(mobile);
  expect(actor.getSnapshot().value).toBe('redirecting');
  expect(actor.getSnapshot().hasTag('redirecting')).toBe(true);
  expect(effects).toEqual([{ name: 'redirect to widget', params: mobile }]);
  expect(widget.runs).toHaveLength(0);
  clock.increment(WIDGET_INIT_TIMEOUT_MS * 2);
  expect(actor.getSnapshot().value).toBe('redirecting');
});

test('a desktop opens the overlay (the widget actor) with the attempt, without a helper tab', () => {
  const { actor, widget, names } = start();
  expect(actor.getSnapshot().value).toEqual({ widget: 'loading' });
  expect(actor.getSnapshot().hasTag('loading')).toBe(true);
  expect(widget.last.input).toEqual(desktop);
  expect(names()).toEqual([]);
});

test('desktop Safari also opens the helper tab, then the overlay', () => {
  const { actor, widget, effects } = start(desktop, { safari: true });
  expect(effects).toEqual([{ name: 'open helper tab', params: desktop }]);
  expect(widget.runs).toHaveLength(1);
  expect(actor.getSnapshot().value).toEqual({ widget: 'loading' });
});

test('no word from the widget for 20000 ms: fail, the overlay closes, the fail return URL, the time-out logged', () => {
  const { actor, widget, effects, clock } = start();
  clock.increment(WIDGET_INIT_TIMEOUT_MS - 1);
  expect(actor.getSnapshot().value).toEqual({ widget: 'loading' });
  clock.increment(1);
  expect(actor.getSnapshot().value).toBe('fail');
  expect(actor.getSnapshot().status).toBe('done');
  expect(actor.getSnapshot().output).toEqual({ result: 'fail' });
  expect(widget.last.stopped).toBe(true);
  expect(effects.map((e) => e.name)).toEqual(['log error', 'go to return url']);
  expect(effects[1]!.params).toEqual({ ...desktop, outcome: 'fail' });
});

test('the widget initialises: open, and the time-out no longer applies', () => {
  const { actor, report, clock } = start();
  report('widget.ready');
  expect(actor.getSnapshot().value).toEqual({ widget: 'open' });
  expect(actor.getSnapshot().hasTag('open')).toBe(true);
  clock.increment(WIDGET_INIT_TIMEOUT_MS * 3);
  expect(actor.getSnapshot().value).toEqual({ widget: 'open' });
});

// The bank's two outcomes end the same way, each to its own return URL.
test.each(['success', 'fail'] as const)('%s closes the widget and goes to its return URL', (outcome) => {
  const { actor, report, widget, effects } = start();
  report('widget.ready');
  report(`widget.${outcome}`);
  expect(actor.getSnapshot().value).toBe(outcome);
  expect(actor.getSnapshot().output).toEqual({ result: outcome });
  expect(widget.last.stopped).toBe(true);
  expect(effects).toEqual([{ name: 'go to return url', params: { ...desktop, outcome } }]);
});

test('success may come before any question (still loading)', () => {
  const { actor, report } = start();
  report('widget.success');
  expect(actor.getSnapshot().output).toEqual({ result: 'success' });
});

test('CLOSE_WIDGET: closed, nowhere to go (the checkout lets the payer choose again)', () => {
  const { actor, report, widget, effects } = start();
  report('widget.ready');
  report('widget.closed');
  expect(actor.getSnapshot().value).toBe('closed');
  expect(actor.getSnapshot().output).toEqual({ result: 'closed' });
  expect(widget.last.stopped).toBe(true);
  expect(effects).toEqual([]);
});

test('an exception in the widget is logged and fails the payment', () => {
  const { actor, widget, effects } = start();
  const error = new Error('boom');
  widget.last.sendBack({ type: 'widget.error', error } as { type: string });
  expect(actor.getSnapshot().output).toEqual({ result: 'fail' });
  expect(effects).toEqual([
    { name: 'log error', params: { error } },
    { name: 'go to return url', params: { ...desktop, outcome: 'fail' } },
  ]);
});

test('unprovided effects fail loudly', () => {
  const actor = createActor(bankWidgetMachine, { input: desktop });
  const errors: unknown[] = [];
  actor.subscribe({ error: (error) => errors.push(error) });
  actor.start();
  expect(String(errors[0])).toMatch(/is Safari desktop is not provided/);
});
