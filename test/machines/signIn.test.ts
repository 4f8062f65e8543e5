import { signInMachine } from '../../src/machines/signIn';
import type { LoginInput } from '../../src/machines/accountFlow';
import type { AccountAnswer } from '../../src/services/accountAnswer';
import { answer, settle, startFlow } from '../fixtures/accountFlows';
import { fakeRequest } from '../fixtures/fakes';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

function start() {
  const login = fakeRequest<AccountAnswer, LoginInput>();
  const log = jest.fn();
  const machine = signInMachine.provide({ actors: { login: login.logic }, actions: { 'log error': (_, { error }) => log(error) } });
  const run = startFlow(machine);
  return { ...run, login, log };
}

test('phone and password go to the login; success tells the checkout user.signedIn and stays busy', async () => {
  const { flow, told, login } = start();
  expect(flow.getSnapshot().value).toBe('editing');
  flow.send({ type: 'signIn.submit', phone: '79990000002', password: 'demo-pass' });
  expect(flow.getSnapshot().value).toBe('signingIn');
  expect(flow.getSnapshot().hasTag('busy')).toBe(true);
  expect(login.inputs).toEqual([{ phone: '79990000002', password: 'demo-pass', captcha: null }]);

  login.last.answer.resolve(answer());
  await settle();
  expect(flow.getSnapshot().value).toBe('signedIn');
  expect(flow.getSnapshot().hasTag('busy')).toBe(true);
  expect(told).toEqual([{ type: 'user.signedIn' }]);
});

test("a refusal shows 'Не удалось авторизоваться' with the server's reason and the robot check, which must pass before the next try", async () => {
  const { flow, told, login, log } = start();
  flow.send({ type: 'signIn.submit', phone: '79990000002', password: 'wrong' });
  login.last.answer.resolve(answer({ success: false, showCaptcha: true, status: 401, error: 'Неверный телефон или пароль' }));
  await settle();
  expect(flow.getSnapshot().value).toBe('editing');
  // The refusal's status says why (the form words it: a wrong phone or password).
  expect(flow.getSnapshot().context).toMatchObject({ failure: { status: 401 }, showCaptcha: true, captcha: null });
  expect(log).toHaveBeenCalledWith('Неверный телефон или пароль');

  // Pending captcha: the submit does nothing.
  flow.send({ type: 'signIn.submit', phone: '79990000002', password: 'demo-pass' });
  expect(flow.getSnapshot().value).toBe('editing');
  expect(login.inputs).toHaveLength(1);

  // A token that expires does not count.
  flow.send({ type: 'captcha.verified', token: 'old' });
  flow.send({ type: 'captcha.expired' });
  expect(flow.getSnapshot().context.captcha).toBeNull();

  flow.send({ type: 'captcha.verified', token: 'tok-1' });
  flow.send({ type: 'signIn.submit', phone: '79990000002', password: 'demo-pass' });
  expect(flow.getSnapshot().value).toBe('signingIn');
  expect(flow.getSnapshot().context.failure).toBeNull();
  expect(login.inputs[1]).toEqual({ phone: '79990000002', password: 'demo-pass', captcha: 'tok-1' });
  login.last.answer.resolve(answer());
  await settle();
  expect(told).toEqual([{ type: 'user.signedIn' }]);
});

test('a refusal without a captcha request keeps the form usable with no robot check', async () => {
  const { flow, login } = start();
  flow.send({ type: 'signIn.submit', phone: '79990000002', password: 'wrong' });
  login.last.answer.resolve(answer({ success: false, status: 500 }));
  await settle();
  expect(flow.getSnapshot().context).toMatchObject({ failure: { status: 500 }, showCaptcha: false });
  flow.send({ type: 'signIn.submit', phone: '79990000002', password: 'again' });
  expect(flow.getSnapshot().value).toBe('signingIn');
});

test('a failed call (network) is logged and shows the sign-in failure', async () => {
  const { flow, told, login, log } = start();
  flow.send({ type: 'signIn.submit', phone: '79990000002', password: 'demo-pass' });
  const failure = new Error('network down');
  login.last.answer.reject(failure);
  await settle();
  expect(flow.getSnapshot().value).toBe('editing');
  // No answer came: no status to tell.
  expect(flow.getSnapshot().context.failure).toEqual({ status: 0 });
  expect(log).toHaveBeenCalledWith(failure);
  expect(told).toEqual([]);
});

test('the default login actor fails loudly when not provided', async () => {
  const log = jest.fn();
  const { flow } = startFlow(signInMachine.provide({ actions: { 'log error': (_, { error }) => log(error) } }));
  flow.send({ type: 'signIn.submit', phone: '79990000002', password: 'x' });
  await settle();
  expect(log).toHaveBeenCalledWith(new Error('login is not provided'));
});
