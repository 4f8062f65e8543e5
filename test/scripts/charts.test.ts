import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chartsDir, loadMachines, renderCharts, renderMachine, staleCharts } from '../../scripts/charts';

// Loading the machines pulls in xstate and the services once; every test reuses it.
let files: Map<string, string>;
beforeAll(async () => {
  files = await renderCharts();
}, 30_000);

test('docs/statecharts holds the diagrams of the current machines (run npm run charts)', () => {
  expect(staleCharts(files)).toEqual([]);
});

test('every exported machine of src/machines gets a page and a link in the index', async () => {
  const machines = await loadMachines();
  expect(machines.map((m) => m.id)).toEqual(expect.arrayContaining(['app', 'checkout', 'paymentStatus']));
  for (const machine of machines) {
    expect(files.get(`${machine.id}.md`)).toContain('```mermaid\nstateDiagram-v2');
    expect(files.get('README.md')).toContain(`(./${machine.id}.md)`);
  }
});

test("the server's money charts get a page each, linked under their own heading, drawn from their definitions", () => {
  for (const id of ['attempt', 'refund', 'bill']) expect(files.get(`${id}.md`)).toContain('```mermaid\nstateDiagram-v2');
  expect(files.get('README.md')).toMatch(/## The server's money\n[^#]*\(\.\/attempt\.md\)[^#]*\(\.\/refund\.md\)[^#]*\(\.\/bill\.md\)/);
  const attempt = files.get('attempt.md')!;
  expect(attempt).toContain('attempt_atAcquirer --> attempt_givingBack : acquirer.paid [bill paid already]');
  expect(attempt).toContain('attempt_atAcquirer_registering --> attempt_declined : form.lost');
  expect(attempt).toContain('`npm run inspect:money -- attempt`');
  expect(files.get('bill.md')).toContain('bill_open --> bill_expired : deadline.passed');
});

test('the same machines always give the same text', async () => {
  const again = await renderCharts();
  expect([...again]).toEqual([...files]);
});

test('a diagram shows routes, guarded transitions, delays and actors from the definition', () => {
  const checkout = files.get('checkout.md')!;
  expect(checkout).toMatch(/state "choosePaymentType · \/choosePaymentType[^"]*" as checkout_choosePaymentType \{/);
  expect(checkout).toContain('checkout__any --> checkout_opening : nav.goTo [is opened by the payer]');
  expect(checkout).toContain('checkout_opening_going --> checkout_usePoints : always [is going to (usePoints)]');
  expect(checkout).toContain('checkout_choosePaymentType_paying --> checkout_sbp : done payment [is fast payment]');
  expect(checkout).toContain('checkout_guest_checkingEmail --> checkout_guest_editing : error checkEmail');
  const status = files.get('paymentStatus.md')!;
  expect(status).toContain('paymentStatus_waiting --> paymentStatus_checking : after status poll interval');
  // A fixed delay shows its length; one read from context (the poll's pace slows after two minutes) says so.
  expect(status).toContain('`slow confirmation` (120000 ms)');
  expect(status).toContain('`status poll interval` (computed from context)');
  expect(status).toContain('paymentStatus_success --> [*]');
});

test('a changed, missing or leftover file is reported as stale', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'charts-'));
  try {
    for (const [file, content] of files) writeFileSync(path.join(dir, file), content);
    expect(staleCharts(files, dir)).toEqual([]);
    writeFileSync(path.join(dir, 'app.md'), `${files.get('app.md')!}\nhand edit\n`);
    rmSync(path.join(dir, 'paymentStatus.md'));
    writeFileSync(path.join(dir, 'removedMachine.md'), 'old');
    expect(staleCharts(files, dir)).toEqual(['app.md', 'paymentStatus.md', 'removedMachine.md']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a new machine file is discovered without editing the script', async () => {
  // Discovery reads the folder it is given: a temp folder with one new machine file stands for src/machines.
  const temp = mkdtempSync(path.join(tmpdir(), 'machines-'));
  try {
    writeFileSync(
      path.join(temp, 'door.ts'),
      `const { createMachine } = require(${JSON.stringify(require.resolve('xstate'))});
       exports.doorMachine = createMachine({ id: 'door', initial: 'shut', states: { shut: { on: { 'door.open': 'open' } }, open: { after: { 1000: 'shut' } } } });
       exports.notAMachine = 1;`,
    );
    const machines = await loadMachines(temp);
    expect(machines.map((m) => m.id)).toEqual(['door']);
    const page = renderMachine(machines[0]!);
    expect(page).toContain('door_shut --> door_open : door.open');
    expect(page).toContain('door_open --> door_shut : after 1000 ms');
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
});

test('the README on disk links every page on disk', () => {
  const readme = readFileSync(path.join(chartsDir, 'README.md'), 'utf8');
  for (const file of files.keys()) if (file !== 'README.md') expect(readme).toContain(`./${file}`);
});

test('guards read in words: named, with parameters, combined, or unnamed', async () => {
  const temp = mkdtempSync(path.join(tmpdir(), 'machines-'));
  try {
    writeFileSync(
      path.join(temp, 'lamp.ts'),
      `const { setup, not, and, or } = require(${JSON.stringify(require.resolve('xstate'))});
       exports.lampMachine = setup({ guards: { 'is night': () => true, 'is home': () => true, 'is level': () => true } }).createMachine({
         id: 'lamp', initial: 'off',
         states: {
           off: { on: { 'lamp.switch': [
             { guard: not('is night'), target: 'on' },
             { guard: and(['is night', or(['is home', { type: 'is level', params: { level: 3 } }])]), target: 'on' },
             { guard: () => true, target: 'on' },
           ] } },
           on: {},
         },
       });`,
    );
    const [lamp] = await loadMachines(temp);
    const page = renderMachine(lamp!);
    expect(page).toContain('lamp_off --> lamp_on : lamp.switch [not is night]');
    expect(page).toContain('lamp_off --> lamp_on : lamp.switch [is night and (is home or is level (3))]');
    expect(page).toContain('lamp_off --> lamp_on : lamp.switch [unnamed guard]');
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
});
