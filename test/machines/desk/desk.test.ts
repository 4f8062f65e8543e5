/**
 * The desk's statecharts on fake effects and a fake clock: the session and sign-in, a page per route and what a role
 * may open, the idle time-out and the server ending the session, issuing a bill (then its page), a bill's link sent.
 */
import { assign, createActor } from 'xstate';
import { auditMachine } from '../../../src/desk/machines/audit';
import { billMachine } from '../../../src/desk/machines/bill';
import { billsListMachine } from '../../../src/desk/machines/billsList';
import { deskMachine } from '../../../src/desk/machines/desk';
import { newBillMachine } from '../../../src/desk/machines/newBill';
import { paymentsMachine } from '../../../src/desk/machines/payments';
import { settingsMachine } from '../../../src/desk/machines/settings';
import { signInMachine } from '../../../src/desk/machines/signIn';
import { staffMachine } from '../../../src/desk/machines/staff';
import { DeskApiError } from '../../../src/desk/services/http';
import { permissionsOf, type Role } from '../../../src/desk/services/rules/permissions';
import type { DeskRoute } from '../../../src/desk/services/routes';
import type { AuditAnswer, BillForm, BillPage, BillsAnswer, BillsQuery, Figures, NewBillBody, SessionAnswer, Settings, StaffMember } from '../../../src/desk/services/types';
import { fakeRequest } from '../../fixtures/fakes';
import { settle } from '../../fixtures/accountFlows';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const me = (role: Role, mustChangePassword = false) => ({ email: `${role}@demo.local`, name: role, role, permissions: [...permissionsOf(role)], mustChangePassword });
const session = (role: Role | null, ended = false): SessionAnswer => ({ csrfToken: 't', staff: role ? me(role) : null, ended });
const noBills: BillsAnswer = { bills: [], page: 1, pageSize: 20, total: 0 };

function start(route: DeskRoute = { name: 'bills' }) {
  const fakes = {
    session: fakeRequest<SessionAnswer, void>(),
    signOut: fakeRequest<SessionAnswer, void>(),
    signIn: fakeRequest<SessionAnswer, { email: string; password: string }>(),
    bills: fakeRequest<BillsAnswer, BillsQuery>(),
    bill: fakeRequest<BillPage, string>(),
    sendLink: fakeRequest<{ to: string }, { objectOID: string; channel: 'sms' | 'email'; to: string | null }>(),
    form: fakeRequest<BillForm, void>(),
    issue: fakeRequest<{ objectOID: string }, { body: NewBillBody; idempotencyKey: string }>(),
    settings: fakeRequest<Settings, void>(),
  };
  const log = jest.fn();
  const logError = (_: unknown, { error }: { error: unknown }) => log(error);
  let keys = 0;
  const machine = deskMachine.provide({
    actors: {
      'load session': fakes.session.logic,
      'sign out': fakes.signOut.logic,
      signIn: signInMachine.provide({ actors: { 'sign in': fakes.signIn.logic }, actions: { 'log error': logError } }),
      billsList: billsListMachine.provide({ actors: { 'load bills': fakes.bills.logic }, actions: { 'log error': logError } }),
      bill: billMachine.provide({ actors: { 'load bill': fakes.bill.logic, 'send link': fakes.sendLink.logic }, actions: { 'log error': logError } }),
      newBill: newBillMachine.provide({
        actors: { 'load form': fakes.form.logic, 'issue bill': fakes.issue.logic },
        actions: { 'log error': logError, 'make idempotency key': assign({ idempotencyKey: () => `key-${++keys}` }) },
      }),
      settings: settingsMachine.provide({ actors: { 'load settings': fakes.settings.logic }, actions: { 'log error': logError } }),
      payments: paymentsMachine.provide({ actors: { 'load figures': fakeRequest<Figures, void>().logic }, actions: { 'log error': logError } }),
      staff: staffMachine.provide({ actors: { 'load staff': fakeRequest<{ staff: StaffMember[] }, void>().logic }, actions: { 'log error': logError } }),
      audit: auditMachine.provide({ actors: { 'load audit': fakeRequest<AuditAnswer, number>().logic }, actions: { 'log error': logError } }),
    },
    actions: { 'log error': logError },
  });
  const desk = createActor(machine, { input: { route } }).start();
  return { desk, fakes, log };
}

async function signedInAs(role: Role, route?: DeskRoute) {
  const run = start(route);
  run.fakes.session.last.answer.resolve(session(role));
  await settle();
  return run;
}

test('no session: the sign-in form; a wrong password says so and stays; the right one opens the page the address named', async () => {
  const { desk, fakes } = start({ name: 'bill', objectOID: 'demo-anon' });
  expect(desk.getSnapshot().hasTag('busy')).toBe(true);
  fakes.session.last.answer.resolve(session(null));
  await settle();
  expect(desk.getSnapshot().value).toBe('signedOut');
  const signIn = desk.getSnapshot().children.signIn!;
  signIn.send({ type: 'signIn.submit', email: 'manager@demo.local', password: 'wrong' });
  expect(signIn.getSnapshot().hasTag('busy')).toBe(true);
  fakes.signIn.last.answer.reject(new DeskApiError('Неверный e-mail или пароль', 401, 'wrong_credentials'));
  await settle();
  expect(signIn.getSnapshot().value).toBe('editing');
  expect(signIn.getSnapshot().context.problem).toMatchObject({ code: 'wrong_credentials', status: 401 });
  signIn.send({ type: 'signIn.submit', email: 'manager@demo.local', password: 'right' });
  expect(signIn.getSnapshot().context.problem).toBeNull();
  fakes.signIn.last.answer.resolve(session('manager'));
  await settle();
  expect(desk.getSnapshot().matches({ signedIn: { page: 'bill' } })).toBe(true);
  expect(fakes.bill.inputs).toEqual(['demo-anon']);
  expect(desk.getSnapshot().context.me?.role).toBe('manager');
});

test('a one-time password: the new password first, then the desk', async () => {
  const { desk, fakes } = start();
  fakes.session.last.answer.resolve({ csrfToken: 't', staff: me('accountant', true), ended: false });
  await settle();
  expect(desk.getSnapshot().value).toBe('changingPassword');
  expect(desk.getSnapshot().children.password).toBeDefined();
});

test.each([
  ['manager', 'settings', 'forbidden'],
  ['manager', 'newBill', 'newBill'],
  ['accountant', 'audit', 'forbidden'],
  ['admin', 'audit', 'audit'],
  ['admin', 'staff', 'staff'],
] as const)('%s opening %s: %s', async (role, page, shown) => {
  const { desk } = await signedInAs(role, { name: page });
  expect(desk.getSnapshot().matches({ signedIn: { page: shown } })).toBe(true);
});

test('thirty minutes without a key or a click sign out and say why; activity starts the time again', async () => {
  const { desk, fakes } = await signedInAs('manager');
  await settle(29 * 60_000);
  desk.send({ type: 'desk.activity' });
  await settle(29 * 60_000);
  expect(desk.getSnapshot().matches('signedIn')).toBe(true);
  await settle(60_000);
  expect(desk.getSnapshot().value).toBe('signingOut');
  fakes.signOut.last.answer.resolve(session(null));
  await settle();
  expect(desk.getSnapshot().value).toBe('signedOut');
  expect(desk.getSnapshot().context.notice).toBe('idle');
  expect(desk.getSnapshot().context.me).toBeNull();
});

test('the server ending the session (a 401 anywhere) shows the sign-in form with its notice', async () => {
  const { desk } = await signedInAs('admin');
  desk.send({ type: 'session.ended' });
  expect(desk.getSnapshot().value).toBe('signedOut');
  expect(desk.getSnapshot().context.notice).toBe('ended');
});

test('the bills list keeps its query across pages of the desk', async () => {
  const { desk, fakes } = await signedInAs('manager');
  const bills = desk.getSnapshot().children.bills!;
  bills.send({ type: 'bills.search', q: ' Петров ' });
  bills.send({ type: 'bills.toggleStatus', status: 'paid' });
  expect(fakes.bills.inputs.at(-1)).toEqual({ q: 'Петров', statuses: ['paid'], page: 1 });
  desk.send({ type: 'nav.to', route: { name: 'payments' } });
  desk.send({ type: 'nav.to', route: { name: 'bills' } });
  expect(fakes.bills.inputs.at(-1)).toEqual({ q: 'Петров', statuses: ['paid'], page: 1 });
  fakes.bills.last.answer.resolve(noBills);
  await settle();
  expect(desk.getSnapshot().children.bills!.getSnapshot().value).toBe('ready');
});

test('issuing a bill: one key per form (a failed try keeps it), then the new bill’s page', async () => {
  const { desk, fakes } = await signedInAs('manager', { name: 'newBill' });
  const newBill = desk.getSnapshot().children.newBill!;
  fakes.form.last.answer.resolve({ schema: {}, fiscal: { vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'commodity' } });
  await settle();
  const body: NewBillBody = { purpose: 'Счет', amount: { value: '10.00', currency: 'RUB' } };
  newBill.send({ type: 'bill.submit', body });
  expect(newBill.getSnapshot().hasTag('busy')).toBe(true);
  fakes.issue.last.answer.reject(new DeskApiError('The request has invalid fields', 400, 'invalid_request', [{ field: 'purpose', message: 'must be 1 to 500 characters' }]));
  await settle();
  expect(newBill.getSnapshot().context.problem?.fields).toEqual([{ field: 'purpose', message: 'must be 1 to 500 characters' }]);
  newBill.send({ type: 'bill.submit', body });
  expect(fakes.issue.inputs.map((input) => input.idempotencyKey)).toEqual(['key-1', 'key-1']);
  fakes.issue.last.answer.resolve({ objectOID: 'bill-new' });
  await settle();
  expect(desk.getSnapshot().context.route).toEqual({ name: 'bill', objectOID: 'bill-new' });
  expect(fakes.bill.inputs).toEqual(['bill-new']);
});

test('a bill’s link: sending, then the bill read again with the outcome said; a refusal said by its code', async () => {
  const { desk, fakes } = await signedInAs('manager', { name: 'bill', objectOID: 'demo-anon' });
  const bill = desk.getSnapshot().children.bill!;
  const page = { bill: { objectOID: 'demo-anon' } } as BillPage;
  fakes.bill.last.answer.resolve(page);
  await settle();
  bill.send({ type: 'link.send', channel: 'email', to: 'a@example.ru' });
  expect(bill.getSnapshot().hasTag('sending')).toBe(true);
  expect(fakes.sendLink.inputs).toEqual([{ objectOID: 'demo-anon', channel: 'email', to: 'a@example.ru' }]);
  fakes.sendLink.last.answer.resolve({ to: 'a@example.ru' });
  await settle();
  expect(bill.getSnapshot().value).toBe('refreshing');
  fakes.bill.last.answer.resolve(page);
  await settle();
  expect(bill.getSnapshot().context.link).toEqual({ channel: 'email', to: 'a@example.ru', sent: true, problem: null });
  bill.send({ type: 'link.send', channel: 'sms', to: null });
  fakes.sendLink.last.answer.reject(new DeskApiError('…', 409, 'bill_not_payable'));
  await settle();
  fakes.bill.last.answer.resolve(page);
  await settle();
  expect(bill.getSnapshot().context.link).toMatchObject({ channel: 'sms', sent: false, problem: { code: 'bill_not_payable' } });
  expect(bill.getSnapshot().matches({ ready: 'idle' })).toBe(true);
});
