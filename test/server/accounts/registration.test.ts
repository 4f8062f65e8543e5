import { accountByPhone } from '../../../server/accounts/accountQueries';
import type { CaptchaVerifier } from '../../../server/accounts/captcha';
import { insertVerification, setCaptchaRequired } from '../../../server/accounts/codeQueries';
import { verifyPassword } from '../../../server/accounts/passwords';
import { register, type AccountDeps, type RegistrationRequest } from '../../../server/accounts/registration';
import { textsOfPhone } from '../../../server/accounts/textQueries';
import { TEST_PASSWORD_COST } from '../helpers';
import { textBench } from './textBench';

/** Registration as a domain function, on a real store: what it needs first, what it writes and sends, and a race. */
const bench = textBench();

const PHONE = '79991112233';

const deps = (verifyCaptcha: CaptchaVerifier = async () => false): AccountDeps => ({ texts: bench.line.texts, verifyCaptcha, passwordCost: TEST_PASSWORD_COST });

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

const proveForRegistration = (phone = PHONE) => insertVerification(bench.store, { session_id: 'session-1', phone, purpose: 'register', cust_no: null });

test('a phone not proven by a register code in this session is not registered', async () => {
  // A proof of another purpose, or of another phone, does not count.
  await insertVerification(bench.store, { session_id: 'session-1', phone: PHONE, purpose: 'forgot-password', cust_no: null });
  await proveForRegistration('79994445566');
  expect(await register(bench.store, deps(), request())).toBe('unproven');
  expect(await accountByPhone(bench.store, PHONE)).toBeUndefined();
  expect(bench.line.sent).toEqual([]);
});

test('a proven phone gets an account with the names trimmed, and its password by SMS, its text written with the account', async () => {
  await proveForRegistration();
  expect(await register(bench.store, deps(), request())).toBe('registered');

  const account = (await accountByPhone(bench.store, PHONE))!;
  expect(account).toMatchObject({ surname: 'Иванова', name: 'Мария', patronymic: 'Сергеевна', email: null, oid: expect.stringMatching(/^user-/) });
  expect(bench.line.sent).toEqual([{ phone: PHONE, text: expect.stringMatching(/^Вы зарегистрированы\. Ваш пароль: \S{10}$/) }]);
  const password = /пароль: (\S+)$/.exec(bench.line.sent[0]!.text)![1]!;
  expect(await verifyPassword(password, account.password_hash)).toBe(true);
  // The outbox keeps that it went, and to whom, but not the password.
  const [text] = await textsOfPhone(bench.store, PHONE, 5);
  expect(text).toMatchObject({ kind: 'password', session_id: 'session-1', state: 'accepted', sealed_text: null, sms_id: '000000-00000001' });
  expect(JSON.stringify(text)).not.toContain(password);

  // The proof is used up: registering again needs a new one, and then the phone is taken.
  expect(await register(bench.store, deps(), request())).toBe('unproven');
  await proveForRegistration();
  expect(await register(bench.store, deps(), request())).toBe('taken');
  expect(bench.line.sent).toHaveLength(1);
});

/** A proven phone registers while the provider fails so: the account is made, its text did not go out; answers its hash. */
async function registeredButNotSent(failure: 'refused' | 'down'): Promise<string> {
  await proveForRegistration();
  bench.line.failWith(failure);
  expect(await register(bench.store, deps(), request())).toBe('not-sent');
  return (await accountByPhone(bench.store, PHONE))!.password_hash;
}

test('the provider refuses the password: the payer hears it, and asking again sends a new password once it takes it', async () => {
  const first = await registeredButNotSent('refused');
  expect(await textsOfPhone(bench.store, PHONE, 5)).toEqual([expect.objectContaining({ state: 'refused', status_code: 207, sealed_text: null })]);

  bench.line.failWith(null);
  expect(await register(bench.store, deps(), request())).toBe('registered');
  const password = /пароль: (\S+)$/.exec(bench.line.sent[0]!.text)![1]!;
  // The refused text's password reached nobody: a new one replaced it, and it signs in.
  const account = (await accountByPhone(bench.store, PHONE))!;
  expect(account.password_hash).not.toBe(first);
  expect(await verifyPassword(password, account.password_hash)).toBe(true);
  // Once it went out, asking again sends nothing more.
  expect(await register(bench.store, deps(), request())).toBe('unproven');
  expect(bench.line.sent).toHaveLength(1);
});

test('the provider is down: the same password goes out when the payer asks again', async () => {
  const hash = await registeredButNotSent('down');
  expect(await textsOfPhone(bench.store, PHONE, 5)).toEqual([expect.objectContaining({ state: 'pending', attempts: 1, sealed_text: expect.any(String) })]);

  bench.line.failWith(null);
  expect(await register(bench.store, deps(), request())).toBe('registered');
  expect(bench.line.sent).toHaveLength(1);
  expect((await accountByPhone(bench.store, PHONE))!.password_hash).toBe(hash);
  expect(await verifyPassword(/пароль: (\S+)$/.exec(bench.line.sent[0]!.text)![1]!, hash)).toBe(true);
  expect(await textsOfPhone(bench.store, PHONE, 5)).toEqual([expect.objectContaining({ state: 'accepted', attempts: 2, sealed_text: null })]);
});

test('a phone with an account already is taken (the demo account)', async () => {
  await insertVerification(bench.store, { session_id: 'session-1', phone: '79990000002', purpose: 'register', cust_no: null });
  expect(await register(bench.store, deps(), request({ phone: '79990000002' }))).toBe('taken');
});

test('a phone whose guard demands the captcha needs one that proves a person', async () => {
  await proveForRegistration();
  await setCaptchaRequired(bench.store, PHONE, true);
  const asked: string[] = [];
  const verifier: CaptchaVerifier = async (token) => {
    asked.push(String(token));
    return token === 'person';
  };
  expect(await register(bench.store, deps(verifier), request())).toBe('captcha');
  expect(await register(bench.store, deps(verifier), request({ captcha: 'robot' }))).toBe('captcha');
  expect(await register(bench.store, deps(verifier), request({ captcha: 'person' }))).toBe('registered');
  expect(asked).toEqual(['robot', 'person']);
});

test('two registrations of one proof at once make one account and send one password', async () => {
  await proveForRegistration();
  const outcomes = await Promise.all([register(bench.store, deps(), request()), register(bench.store, deps(), request())]);
  // The other finds the proof used up or the phone taken, whichever it reads first; or, once the proof is used up, the
  // first's password text still being sent by the first ('not-sent': another sender has it, and it may ask again).
  expect(outcomes.filter((outcome) => outcome === 'registered')).toHaveLength(1);
  expect(outcomes.filter((outcome) => outcome === 'taken' || outcome === 'unproven' || outcome === 'not-sent')).toHaveLength(1);
  expect(await bench.store.db.selectFrom('loyalty_accounts').select('id').where('phone', '=', PHONE).execute()).toHaveLength(1);
  expect(bench.line.sent).toHaveLength(1);
});
