import { accountByPhone } from '../../../server/accounts/accountQueries';
import type { CaptchaVerifier } from '../../../server/accounts/captcha';
import { insertVerification, setCaptchaRequired } from '../../../server/accounts/codeQueries';
import { verifyPassword } from '../../../server/accounts/passwords';
import { register, type AccountDeps, type RegistrationRequest } from '../../../server/accounts/registration';
import { insertSession } from '../../../server/accounts/sessionQueries';
import type { Store } from '../../../server/store/store';
import { startStore, TEST_PASSWORD_COST, type TestStore } from '../helpers';

/** Registration as a domain function, on a real store: what it needs first, what it writes and sends, and a race. */
let t: TestStore;
beforeEach(async () => {
  t = await startStore();
  await insertSession(t.store, 'session-1', 'token-1');
});
afterEach(() => t.close());

const PHONE = '79991112233';

/**
 * An SMS line that keeps what was sent once the transaction committed (a transaction may run more than once on
 * PostgreSQL), and whether it was given inside a transaction of the store.
 */
function smsLine() {
  const sent: { phone: string; text: string; inTransaction: boolean }[] = [];
  const send = async (store: Store, phone: string, text: string) => store.afterCommit(() => void sent.push({ phone, text, inTransaction: store !== t.store }));
  return { sent, sms: { send } };
}

const deps = (sms = smsLine().sms, verifyCaptcha: CaptchaVerifier = async () => false): AccountDeps => ({ sms, verifyCaptcha, passwordCost: TEST_PASSWORD_COST });

const request = (overrides: Partial<RegistrationRequest> = {}): RegistrationRequest => ({
  sessionId: 'session-1',
  phone: PHONE,
  surname: ' Иванова ',
  name: 'Мария ',
  patronymic: ' Сергеевна',
  captcha: null,
  address: '127.0.0.1',
  ...overrides,
});

const proveForRegistration = (phone = PHONE) => insertVerification(t.store, { session_id: 'session-1', phone, purpose: 'register', cust_no: null });

test('a phone not proven by a register code in this session is not registered', async () => {
  const { sms, sent } = smsLine();
  // A proof of another purpose, or of another phone, does not count.
  await insertVerification(t.store, { session_id: 'session-1', phone: PHONE, purpose: 'forgot-password', cust_no: null });
  await proveForRegistration('79994445566');
  expect(await register(t.store, deps(sms), request())).toBe('unproven');
  expect(await accountByPhone(t.store, PHONE)).toBeUndefined();
  expect(sent).toEqual([]);
});

test('a proven phone gets an account with the names trimmed, and its password by SMS in the same transaction', async () => {
  const { sms, sent } = smsLine();
  await proveForRegistration();
  expect(await register(t.store, deps(sms), request())).toBe('registered');

  const account = (await accountByPhone(t.store, PHONE))!;
  expect(account).toMatchObject({ surname: 'Иванова', name: 'Мария', patronymic: 'Сергеевна', email: null, oid: expect.stringMatching(/^user-/) });
  expect(sent).toEqual([{ phone: PHONE, text: expect.stringMatching(/^Вы зарегистрированы\. Ваш пароль: \S{10}$/), inTransaction: true }]);
  const password = /пароль: (\S+)$/.exec(sent[0]!.text)![1]!;
  expect(await verifyPassword(password, account.password_hash)).toBe(true);

  // The proof is used up: registering again needs a new one, and then the phone is taken.
  expect(await register(t.store, deps(sms), request())).toBe('unproven');
  await proveForRegistration();
  expect(await register(t.store, deps(sms), request())).toBe('taken');
  expect(sent).toHaveLength(1);
});

test('a phone with an account already is taken (the demo account)', async () => {
  await insertVerification(t.store, { session_id: 'session-1', phone: '79990000002', purpose: 'register', cust_no: null });
  expect(await register(t.store, deps(), request({ phone: '79990000002' }))).toBe('taken');
});

test('a phone whose guard demands the captcha needs one that proves a person', async () => {
  await proveForRegistration();
  await setCaptchaRequired(t.store, PHONE, true);
  const asked: string[] = [];
  const verifier: CaptchaVerifier = async (token) => {
    asked.push(String(token));
    return token === 'person';
  };
  expect(await register(t.store, deps(undefined, verifier), request())).toBe('captcha');
  expect(await register(t.store, deps(undefined, verifier), request({ captcha: 'robot' }))).toBe('captcha');
  expect(await register(t.store, deps(undefined, verifier), request({ captcha: 'person' }))).toBe('registered');
  expect(asked).toEqual(['robot', 'person']);
});

test('two registrations of one proof at once make one account and send one password', async () => {
  const { sms, sent } = smsLine();
  await proveForRegistration();
  const outcomes = await Promise.all([register(t.store, deps(sms), request()), register(t.store, deps(sms), request())]);
  // The other finds the proof used up or the phone taken, whichever it reads first.
  expect(outcomes.filter((outcome) => outcome === 'registered')).toHaveLength(1);
  expect(outcomes.filter((outcome) => outcome === 'taken' || outcome === 'unproven')).toHaveLength(1);
  expect(await t.store.db.selectFrom('loyalty_accounts').select('id').where('phone', '=', PHONE).execute()).toHaveLength(1);
  expect(sent).toHaveLength(1);
});
