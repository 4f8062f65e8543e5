import { createMachine, type AnyStateMachine } from 'xstate';
import { appMachine } from '../../src/machines/app';
import { chunks } from '../../src/machines/chunks';
import { pageCode } from '../../src/pageCode';
import { checkoutMachine } from '../../src/machines/checkout';
import { paymentStatusMachine } from '../../src/machines/paymentStatus';
import { coverageOf, coverageRecorder, itemsOf } from './support/coverage';
import { flows, ownerOf, realMachines } from './support/scopes';

/** Every machine a machine can run, found by walking the actors its setup() names (and theirs). */
function machinesUnder(machine: AnyStateMachine, found = new Map<string, AnyStateMachine>()) {
  found.set(machine.id, machine);
  for (const logic of Object.values(machine.implementations.actors)) machinesIn(logic, found);
  return found;
}

function machinesIn(logic: unknown, found: Map<string, AnyStateMachine>) {
  const child = logic as AnyStateMachine;
  if (child && typeof child === 'object' && 'root' in child && !found.has(child.id)) machinesUnder(child, found);
}

test('the coverage check knows every machine the page runs: the root and its own, and those every chunk of code brings', async () => {
  const found = machinesUnder(appMachine);
  const code = pageCode();
  for (const chunk of chunks) for (const logic of Object.values((await code.load(chunk)).children)) machinesIn(logic, found);
  expect([...found.keys()].sort()).toEqual(realMachines.map((machine) => machine.id).sort());
});

test('every state and transition of every real machine belongs to exactly one flow', () => {
  const items = realMachines.flatMap(itemsOf);
  expect(items.length).toBeGreaterThan(150);
  for (const item of items) expect(flows).toContain(ownerOf(item));
});

test('itemsOf finds states, on/after/always transitions and invoke done/error of a machine', () => {
  const keys = itemsOf(paymentStatusMachine).map((item) => item.key);
  expect(keys).toEqual(
    expect.arrayContaining([
      'paymentStatus:paymentStatus.paused',
      'paymentStatus:paymentStatus.paused --visibility.visible -> paymentStatus.checking',
      'paymentStatus:paymentStatus.waiting --always [pauses for the hidden tab] -> paymentStatus.paused',
      'paymentStatus:paymentStatus.waiting --after:status poll interval -> paymentStatus.checking',
      'paymentStatus:paymentStatus.checking --error:fetchStatus -> paymentStatus.retrying',
    ]),
  );
});

test('a transition added to a real machine without a way to reach it in the model fails the coverage check', () => {
  // What a run of the payment-status model reached: everything the real machine has.
  const reached = new Set(itemsOf(paymentStatusMachine).map((item) => item.key));
  const scope = { machines: [paymentStatusMachine], owns: () => true };
  expect(coverageOf('payment-status', scope, reached).missing).toEqual([]);

  // The same machine with one more transition (a 'refresh' button nobody models): the check names it.
  const config = paymentStatusMachine.config;
  const variant = createMachine({
    ...config,
    states: { ...config.states, paused: { ...config.states!.paused, on: { ...config.states!.paused!.on, 'status.refresh': 'checking' } } },
  } as typeof config);
  const report = coverageOf('payment-status', { machines: [variant], owns: () => true }, reached);
  expect(report.missing.map((item) => item.key)).toEqual(['paymentStatus:paymentStatus.paused --status.refresh -> paymentStatus.checking']);
  const states = itemsOf(paymentStatusMachine).filter((item) => item.kind === 'state').length;
  expect(report.line).toBe(`model coverage payment-status: states ${states}/${states}, transitions ${reached.size - states}/${reached.size - states + 1}`);
});

test('a new checkout step with no model path is reported as a missing state and its transitions', () => {
  const config = checkoutMachine.config;
  const variant = createMachine({ ...config, states: { ...config.states, receipt: { on: { 'nav.back': '#checkout.guest' } } } } as typeof config);
  const reached = new Set(itemsOf(checkoutMachine).map((item) => item.key));
  const missing = coverageOf('anonymous-payment', { machines: [variant], owns: () => true }, reached).missing.map((item) => item.key);
  expect(missing).toEqual(['checkout:checkout.receipt', 'checkout:checkout.receipt --nav.back -> checkout.guest']);
});

test('the recorder ignores actors that are not machines', () => {
  const recorder = coverageRecorder();
  recorder.inspect({ type: '@xstate.snapshot', actorRef: { logic: {} }, snapshot: {} } as never);
  expect(recorder.reached.size).toBe(0);
});

test('keys name what a transition does, so adding or reordering transitions leaves the other keys alone', () => {
  const config = paymentStatusMachine.config;
  const checking = config.states!.checking! as unknown as { invoke: { onDone: unknown[]; onError: unknown[] } };
  // A new first answer on the poll and the error handlers in the other order: the same keys for the old ones.
  const variant = createMachine({
    ...config,
    states: {
      ...config.states,
      checking: {
        ...checking,
        invoke: {
          ...checking.invoke,
          onDone: [{ guard: 'is status', target: 'paused' }, ...checking.invoke.onDone],
          onError: [...checking.invoke.onError].reverse(),
        },
      },
    },
  } as unknown as typeof config);
  const before = itemsOf(paymentStatusMachine).map((item) => item.key);
  const after = itemsOf(variant).map((item) => item.key);
  expect(after.filter((key) => !before.includes(key))).toEqual(['paymentStatus:paymentStatus.checking --done:fetchStatus [is status] -> paymentStatus.paused']);
  expect(before.filter((key) => !after.includes(key))).toEqual([]);
});

test('two transitions alike in source, event, guard and targets are told apart by their order only', () => {
  const machine = createMachine({ id: 'alike', initial: 'a', states: { a: { on: { go: [{ guard: 'x', target: 'b' }, { guard: 'x', target: 'b' }] } }, b: {} } });
  expect(itemsOf(machine).filter((item) => item.kind === 'transition').map((item) => item.key)).toEqual(['alike:alike.a --go [x] -> alike.b #0', 'alike:alike.a --go [x] -> alike.b #1']);
});
