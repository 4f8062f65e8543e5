import type { FastifyInstance } from 'fastify';
import { HINTED_READ_EVERY_MS } from '../../../server/accounts/freeCalls';
import { FAKE_LINES } from '../../../server/sandbox/smsruFake';
import { demoAccount } from '../../../server/sandbox/demoBills';
import { injectFetch } from '../../support/injectFetch';
import { until } from '../../support/childServer';
import { countRows, DEV_CAPTCHA_TOKEN, openPage, secondProcess, smsFault, startServer, type Client, type TestServer } from '../helpers';

/**
 * The free call through the provider: a call check per session at the sandbox's SMS.ru fake (reached over its HTTP API),
 * its number on the page, polls that read the check, the provider's callback as a hint, and the takeover: a call signs
 * in only the session whose check's number was dialled, and nobody when two sessions wait for the same number.
 */

let server: TestServer;
/** Reads of `callcheck/status` that reached the provider; while `hold` is set they wait until released. */
const reads = { count: 0, hold: false, waiting: [] as (() => void)[] };
const box: { app?: FastifyInstance } = {};

/** The adapter's fetch into the app, counting (and holding, when told) the reads of a check. */
const countingFetch: typeof fetch = async (input, init) => {
  if (String(input).endsWith('/callcheck/status')) {
    reads.count += 1;
    if (reads.hold) await new Promise<void>((resolve) => reads.waiting.push(resolve));
  }
  return injectFetch(() => box.app!)(input, init);
};

beforeEach(async () => {
  Object.assign(reads, { count: 0, hold: false, waiting: [] });
  server = await startServer({ smsruFetch: countingFetch });
  box.app = server.app;
});
afterEach(() => server.close());

const phone = demoAccount.phone;
const lock = (c: Client) => c.post('/ajax/realty/freeCallLock/', { phone }, { form: true });
const poll = async (c: Client) => (await c.post('/ajax/realty/freeCall/', { phone }, { form: true })).json().json as { result: boolean; state: string };
/** The phone calls the provider's number (its newest check's, unless one is named); the provider's callbacks land. */
async function call(to?: string) {
  const answer = await server.app.inject({ method: 'POST', url: '/sandbox/free-call', payload: to ? { phone, to } : { phone } });
  await server.app.background.idle();
  return answer.json() as { success: boolean; answered: number };
}
/** The payer's steps before the free-call screen: the restore code to this phone was sent in this session. */
async function askForRestoreCode(c: Client, captcha: string | null = null) {
  const sent = await c.post('/api/send-sms/', { phone, objectOID: 'demo-reg', captchaVerified: false, custNo: null, usePoints: false, captcha, purpose: 'forgot-password' });
  expect(sent.statusCode).toBe(200);
}
async function signedInPhone(c: Client): Promise<string | null> {
  const token = (await c.post('/ajax/realty/checkUser/')).json().json.token as string | null;
  return token ? ((await c.post('/ajax/get-user', { token })).json().user.phone as string) : null;
}
/** A session that entered the phone for a restore and started its check; answers it and the number it was given. */
async function waitingSession(captcha: string | null = null) {
  const c = await openPage(server.app, 'demo-reg');
  await askForRestoreCode(c, captcha);
  const number = (await lock(c)).json().json as { result: boolean; call_phone: string; call_phone_pretty: string };
  expect(number.result).toBe(true);
  return { client: c, number: number.call_phone };
}

test("the lock starts a check at the provider and answers its number; the call to it signs the account in", async () => {
  const client = await openPage(server.app, 'demo-reg');
  await askForRestoreCode(client);
  expect(await poll(client)).toEqual({ result: false, state: 'none' });
  expect((await lock(client)).json()).toEqual({ success: true, json: { result: true, call_phone: FAKE_LINES[0], call_phone_pretty: '+7 (800) 500-82-75' } });
  expect(await poll(client)).toEqual({ result: false, state: 'waiting' });

  expect(await call()).toEqual({ success: true, answered: 1 });
  expect(await poll(client)).toEqual({ result: true, state: 'confirmed' });
  expect(await signedInPhone(client)).toBe(phone);
  // Polled again after the sign-in (the page reloads meanwhile): still the same answer, nothing more changes.
  expect(await poll(client)).toEqual({ result: true, state: 'confirmed' });
  expect(await countRows(server.app, 'free_call_checks', { state: 'signed-in' })).toBe(1);
});

test('however many polls come at once, one read of the check is in flight, in this process and in another', async () => {
  const { client } = await waitingSession();
  const second = await secondProcess(server, { smsruFetch: countingFetch });
  try {
    const other = Object.assign(Object.create(Object.getPrototypeOf(client)) as Client, client, { app: second });
    reads.hold = true;
    const own = [poll(client), poll(client), poll(client)];
    // The other process polls once this one's read has reached the provider (otherwise it could be the reader).
    await until(() => reads.waiting.length === 1, 'the read at the provider');
    const polls = [...own, poll(other), poll(other)];
    // The polls of the read's own process wait for it; the other process's answer from the database meanwhile.
    expect(await Promise.all(polls.slice(3))).toEqual([
      { result: false, state: 'waiting' },
      { result: false, state: 'waiting' },
    ]);
    expect(reads.count).toBe(1);
    reads.hold = false;
    reads.waiting.splice(0).forEach((release) => release());
    expect(await Promise.all(polls.slice(0, 3))).toEqual(Array(3).fill({ result: false, state: 'waiting' }));
    expect(reads.count).toBe(1);
    // The read over, the next poll reads again.
    await poll(client);
    expect(reads.count).toBe(2);
  } finally {
    await second.close();
  }
});

test('the callback is only a hint: one naming a check the provider has not confirmed signs nobody in', async () => {
  const { client } = await waitingSession();
  const [check] = await server.app.store.db.selectFrom('free_call_checks').select('check_id').execute();
  const forged = await server.app.inject({
    method: 'POST',
    url: '/api/smsru/callback',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams([['data[]', `callcheck_status\n${check!.check_id}\n401\n1768467600`]]).toString(),
  });
  expect(forged.statusCode).toBe(200);
  expect(forged.body).toBe('100');
  await server.app.background.idle();
  // The hint made the server read the check at once; the provider says it still waits.
  expect(reads.count).toBe(1);
  expect(await poll(client)).toEqual({ result: false, state: 'waiting' });
  expect(await signedInPhone(client)).toBeNull();
  // Records of no kind of ours, or none at all, are answered the same and read nothing.
  for (const payload of ['data[]=unknown%0A1', 'x=1', '']) {
    const answer = await server.app.inject({ method: 'POST', url: '/api/smsru/callback', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload });
    expect([answer.statusCode, answer.body]).toEqual([200, '100']);
  }
});

test('callbacks naming a check read it at most once per 10 s, however many come; the polls read it as before', async () => {
  const { client } = await waitingSession();
  const [check] = await server.app.store.db.selectFrom('free_call_checks').select('check_id').execute();
  const hint = () =>
    server.app.inject({
      method: 'POST',
      url: '/api/smsru/callback',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(Array.from({ length: 100 }, () => ['data[]', `callcheck_status\n${check!.check_id}\n401\n1768467600`])).toString(),
    });
  const checkReads = () => server.app.smsruFake!.callsOf('callcheck/status');
  const before = checkReads();
  await Promise.all(Array.from({ length: 20 }, hint));
  await server.app.background.idle();
  expect(checkReads() - before).toBe(1);
  // The page's poll is no hint: it reads the check as it always did.
  expect(await poll(client)).toEqual({ result: false, state: 'waiting' });
  expect(checkReads() - before).toBe(2);
  server.clock.advance(HINTED_READ_EVERY_MS - 1);
  await hint();
  await server.app.background.idle();
  expect(checkReads() - before).toBe(2);
  server.clock.advance(1);
  await hint();
  await server.app.background.idle();
  expect(checkReads() - before).toBe(3);
});

test('the callback lost: the next poll reads the check itself and signs the session in', async () => {
  const { client } = await waitingSession();
  await smsFault(server.app, 'callback-lost');
  expect(await call()).toEqual({ success: true, answered: 1 });
  expect(reads.count).toBe(0);
  expect(await poll(client)).toEqual({ result: true, state: 'confirmed' });
  expect(await signedInPhone(client)).toBe(phone);
});

test('402 from the provider ends the wait; so does the end of the lock, without asking the provider', async () => {
  const first = await waitingSession();
  await server.app.store.db.updateTable('sandbox_smsru_checks').set({ check_status: 402 }).execute();
  expect(await poll(first.client)).toEqual({ result: false, state: 'ended' });
  expect(await call()).toEqual({ success: true, answered: 0 });
  expect(await poll(first.client)).toEqual({ result: false, state: 'ended' });

  server.clock.advance(60_000);
  const second = await waitingSession(DEV_CAPTCHA_TOKEN);
  const before = reads.count;
  server.clock.advance(3 * 60_000);
  expect(await poll(second.client)).toEqual({ result: false, state: 'ended' });
  expect(reads.count).toBe(before);
  expect(await signedInPhone(second.client)).toBeNull();
});

test('a session may start a check only for a phone it entered in this flow', async () => {
  const stranger = await openPage(server.app, 'demo-reg');
  expect((await lock(stranger)).json()).toEqual({ success: true, json: { result: false } });
  // Asking a code for another purpose does not count either.
  const sent = await stranger.post('/api/send-sms/', { phone, objectOID: 'demo-reg', captchaVerified: false, custNo: null, usePoints: false, captcha: null, purpose: 'register' });
  expect(sent.statusCode).toBe(200);
  expect((await lock(stranger)).json().json.result).toBe(false);
  expect(await countRows(server.app, 'free_call_checks')).toBe(0);
  expect(await countRows(server.app, 'sandbox_smsru_checks')).toBe(0);
  expect(await call()).toEqual({ success: true, answered: 0 });
  expect(await poll(stranger)).toEqual({ result: false, state: 'none' });
});

test('the provider down: the lock says so (503) and nothing waits', async () => {
  const client = await openPage(server.app, 'demo-reg');
  await askForRestoreCode(client);
  await smsFault(server.app, 'provider-500');
  const answer = await lock(client);
  expect(answer.statusCode).toBe(503);
  expect(answer.json()).toMatchObject({ success: false, json: { result: false } });
  expect(await countRows(server.app, 'free_call_checks')).toBe(0);
});

describe('two sessions wait for one phone (the takeover)', () => {
  test('with different numbers, a call confirms only the check whose number was dialled', async () => {
    const owner = await waitingSession();
    server.clock.advance(60_000);
    const attacker = await waitingSession(DEV_CAPTCHA_TOKEN);
    expect(owner.number).not.toBe(attacker.number);

    // The phone's owner calls the number their page shows.
    expect(await call(owner.number)).toEqual({ success: true, answered: 1 });
    expect(await poll(attacker.client)).toEqual({ result: false, state: 'waiting' });
    expect(await poll(owner.client)).toEqual({ result: true, state: 'confirmed' });
    expect(await signedInPhone(owner.client)).toBe(phone);
    expect(await signedInPhone(attacker.client)).toBeNull();
    expect(await poll(attacker.client)).toEqual({ result: false, state: 'waiting' });
  });

  test('with the same number, the call signs in neither, and both are told to start again', async () => {
    await smsFault(server.app, 'single-line');
    const owner = await waitingSession();
    server.clock.advance(60_000);
    const attacker = await waitingSession(DEV_CAPTCHA_TOKEN);
    expect(attacker.number).toBe(owner.number);

    expect(await call()).toEqual({ success: true, answered: 2 });
    expect(await poll(owner.client)).toEqual({ result: false, state: 'conflict' });
    expect(await poll(attacker.client)).toEqual({ result: false, state: 'conflict' });
    expect(await signedInPhone(owner.client)).toBeNull();
    expect(await signedInPhone(attacker.client)).toBeNull();

    // Starting again: a new check of the owner's, a new number, and the call to it signs the owner in.
    await smsFault(server.app, 'single-line', false);
    const again = (await lock(owner.client)).json().json as { call_phone: string };
    expect(await call(again.call_phone)).toEqual({ success: true, answered: 1 });
    expect(await poll(owner.client)).toEqual({ result: true, state: 'confirmed' });
    expect(await signedInPhone(owner.client)).toBe(phone);
    expect(await poll(attacker.client)).toEqual({ result: false, state: 'conflict' });
  });

  test("a session's newer check replaces its own older one: a call to the old number confirms nothing", async () => {
    const { client, number } = await waitingSession();
    const newer = (await lock(client)).json().json as { call_phone: string };
    expect(newer.call_phone).not.toBe(number);
    expect(await call(number)).toEqual({ success: true, answered: 1 });
    expect(await poll(client)).toEqual({ result: false, state: 'waiting' });
    expect(await signedInPhone(client)).toBeNull();
    expect(await call(newer.call_phone)).toEqual({ success: true, answered: 1 });
    expect(await poll(client)).toEqual({ result: true, state: 'confirmed' });
  });
});

test('the sandbox free-call line is the phone network: a party of its own, with a page for a tester', async () => {
  const { client } = await waitingSession();
  const page = await server.app.inject({ method: 'GET', url: '/sandbox/free-call' });
  expect(page.statusCode).toBe(200);
  expect(page.body).toContain('<label for="phone">Телефон, с которого звонят</label>');
  expect(page.body).toContain('<label for="to">Номер, на который звонят</label>');
  expect(page.body).toContain('<script src="/sandbox/free-call.js"></script>');
  // No session of ours is needed to call: the call signs nobody in by itself, the product reads the provider's check.
  expect(await call()).toEqual({ success: true, answered: 1 });
  expect(await signedInPhone(client)).toBeNull();
  expect(await poll(client)).toEqual({ result: true, state: 'confirmed' });
  const script = await server.app.inject({ method: 'GET', url: '/sandbox/free-call.js' });
  expect(script.headers['content-type']).toMatch(/^text\/javascript/);
  expect(() => new Function(script.body)).not.toThrow();
});
