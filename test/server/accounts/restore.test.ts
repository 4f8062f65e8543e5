import { accountByPhone } from '../../../server/accounts/accountQueries';
import { insertVerification, setCaptchaRequired } from '../../../server/accounts/codeQueries';
import { verifyPassword } from '../../../server/accounts/passwords';
import { restorePassword, type RestoreRequest } from '../../../server/accounts/restore';
import { demoAccount } from '../../../server/sandbox/demoBills';
import { TEST_PASSWORD_COST } from '../helpers';
import { textBench } from './textBench';

/** Password restore as a domain function, on a real store: the proof it needs, the same answer with or without an account. */
const bench = textBench();

function deps() {
  return { sent: bench.line.sent, deps: { texts: bench.line.texts, verifyCaptcha: async (token: string | null | undefined) => token === 'person', passwordCost: TEST_PASSWORD_COST } };
}

const request = (phone = demoAccount.phone, captcha: string | null = null): RestoreRequest => ({ sessionId: 'session-1', phone, captcha, address: '127.0.0.1' });
const proveForRestore = (phone = demoAccount.phone) => insertVerification(bench.store, { session_id: 'session-1', phone, purpose: 'forgot-password', cust_no: null });

test('without a forgot-password proof in this session nothing changes', async () => {
  const { deps: d, sent } = deps();
  await insertVerification(bench.store, { session_id: 'session-1', phone: demoAccount.phone, purpose: 'register', cust_no: null });
  const before = (await accountByPhone(bench.store, demoAccount.phone))!.password_hash;
  expect(await restorePassword(bench.store, d, request())).toBe('unproven');
  expect((await accountByPhone(bench.store, demoAccount.phone))!.password_hash).toBe(before);
  expect(sent).toEqual([]);
});

test('a proven phone with an account gets a new password by SMS; the old one stops working; the proof is used up', async () => {
  const { deps: d, sent } = deps();
  await proveForRestore();
  expect(await restorePassword(bench.store, d, request())).toBe('done');
  expect(sent).toEqual([{ phone: demoAccount.phone, text: expect.stringMatching(/^Ваш новый пароль: \S{10}$/) }]);
  const hash = (await accountByPhone(bench.store, demoAccount.phone))!.password_hash;
  expect(await verifyPassword(/пароль: (\S+)$/.exec(sent[0]!.text)![1]!, hash)).toBe(true);
  expect(await verifyPassword(demoAccount.password, hash)).toBe(false);
  expect(await restorePassword(bench.store, d, request())).toBe('unproven');
});

test('a proven phone without an account is answered the same, and nothing is sent', async () => {
  const { deps: d, sent } = deps();
  await proveForRestore('79991112233');
  expect(await restorePassword(bench.store, d, request('79991112233'))).toBe('done');
  expect(sent).toEqual([]);
});

test('a phone whose guard demands the captcha needs one that proves a person', async () => {
  const { deps: d } = deps();
  await proveForRestore();
  await setCaptchaRequired(bench.store, demoAccount.phone, true);
  expect(await restorePassword(bench.store, d, request())).toBe('captcha');
  expect(await restorePassword(bench.store, d, request(demoAccount.phone, 'robot'))).toBe('captcha');
  expect(await restorePassword(bench.store, d, request(demoAccount.phone, 'person'))).toBe('done');
});

test('the provider down: the payer hears it, and asking again sends that new password once the provider is back', async () => {
  const { deps: d, sent } = deps();
  await proveForRestore();
  bench.line.failWith('down');
  expect(await restorePassword(bench.store, d, request())).toBe('not-sent');
  bench.line.failWith(null);
  expect(await restorePassword(bench.store, d, request())).toBe('done');
  expect(sent).toEqual([{ phone: demoAccount.phone, text: expect.stringMatching(/^Ваш новый пароль: \S{10}$/) }]);
  expect(await verifyPassword(/пароль: (\S+)$/.exec(sent[0]!.text)![1]!, (await accountByPhone(bench.store, demoAccount.phone))!.password_hash)).toBe(true);
  // Done: a further ask is no proof of anything.
  expect(await restorePassword(bench.store, d, request())).toBe('unproven');
});
