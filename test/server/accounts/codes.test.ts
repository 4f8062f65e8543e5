import crypto from 'node:crypto';
import { CODE_RULES } from '../../../server/accounts/codes';
import { trustProxyFrom } from '../../../server/environment';
import { Client, DEV_CAPTCHA_TOKEN, lastCode, openPage, otherCode, secondProcess, serverWithPage, startServer, textsTo, type TestServer } from '../helpers';
import { guardOf } from '../../../server/accounts/codeQueries';

const PHONE = '79990001122';
let server: TestServer;
let client: Client;

beforeEach(async () => ({ server, client } = await serverWithPage()));
afterEach(() => server.close());

const send = (purpose = 'register', extra: Record<string, unknown> = {}, phone = PHONE) =>
  client.post('/api/send-sms/', { phone, objectOID: 'demo-anon', captchaVerified: false, custNo: null, usePoints: false, captcha: null, purpose, ...extra });
const check = (code: string, purpose = 'register', extra: Record<string, unknown> = {}, phone = PHONE) =>
  client.post('/api/check-code/', { code, phone, custNo: null, usePoints: false, purpose, ...extra });
const captcha = { captcha: DEV_CAPTCHA_TOKEN };

test('a code is 4 digits from crypto.randomInt, sent by SMS and stored only as a salted hash', async () => {
  const randomInt = jest.spyOn(crypto, 'randomInt');
  const sent = await send();
  expect(sent.statusCode).toBe(200);
  expect(sent.json()).toMatchObject({ success: true, show_captcha: false, json: { show_captcha: false }, secondsLeft: 60 });
  expect(randomInt).toHaveBeenCalledWith(0, 10_000);
  randomInt.mockRestore();

  const code = await lastCode(server.app, PHONE);
  expect(code).toMatch(/^\d{4}$/);
  const rows = await server.app.store.db.selectFrom('sms_codes').selectAll().execute();
  expect(rows).toHaveLength(1);
  expect(JSON.stringify(rows)).not.toContain(`"${code}"`);
  expect(rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);

  const ok = await check(code);
  expect(ok.statusCode).toBe(200);
  expect(ok.json()).toEqual({ success: true, data: { verified: true, phone: PHONE, purpose: 'register' } });
});

test('a code lives 10 minutes (fake clock)', async () => {
  await send();
  const code = await lastCode(server.app, PHONE);
  server.clock.advance(CODE_RULES.lifeMs - 1000);
  await send('forgot-password', captcha); // another purpose, to keep the phone busy; not this code
  server.clock.advance(1000);
  const late = await check(code);
  expect(late.statusCode).toBe(400);
  // A dead code takes no more tries; one miss asks for no robot check yet.
  expect(late.json()).toMatchObject({ success: false, error: 'Ошибка проверки кода', show_captcha: false, triesLeft: 0 });

  // Just inside its life, a fresh code works.
  server.clock.advance(CODE_RULES.resendAfterMs);
  await send('register', captcha);
  server.clock.advance(CODE_RULES.lifeMs - 1);
  expect((await check(await lastCode(server.app, PHONE), 'register', captcha)).statusCode).toBe(200);
});

test('a code is single use', async () => {
  await send();
  const code = await lastCode(server.app, PHONE);
  expect((await check(code)).statusCode).toBe(200);
  const again = await check(code, 'register', captcha);
  expect(again.statusCode).toBe(400);
  expect(again.json().error).toBe('Ошибка проверки кода');
});

test('a code is bound to its phone and purpose: a restore code cannot confirm points', async () => {
  const points = await openPage(server.app, 'demo-points');
  await points.post('/api/send-sms/', {
    phone: '79990000001', objectOID: 'demo-points', captchaVerified: false, custNo: 'C-1001', usePoints: false, captcha: null, purpose: 'forgot-password',
  });
  const restoreCode = await lastCode(server.app, '79990000001');
  const asPoints = await points.post('/api/check-code/', { code: restoreCode, phone: '79990000001', custNo: 'C-1001', usePoints: true, purpose: 'use-points' });
  expect(asPoints.statusCode).toBe(400);
  // Another phone cannot use it either.
  await send('forgot-password');
  const otherPhone = await check(await lastCode(server.app, PHONE), 'forgot-password', {}, '79990009999');
  expect(otherPhone.statusCode).toBe(400);
  // And no use-points verification exists, so points cannot be spent.
  expect(await server.app.store.db.selectFrom('phone_verifications').selectAll().where('purpose', '=', 'use-points').execute()).toEqual([]);
});

test('five wrong tries void the code, even for the right code afterwards; each answer says how many tries are left', async () => {
  await send();
  const code = await lastCode(server.app, PHONE);
  for (let i = 0; i < CODE_RULES.wrongTriesPerCode; i++) {
    const wrong = await check(otherCode(code), 'register', captcha);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'Ошибка проверки кода', triesLeft: CODE_RULES.wrongTriesPerCode - 1 - i });
  }
  expect((await check(code, 'register', captcha)).json()).toMatchObject({ success: false, triesLeft: 0 });
});

test('four wrong tries leave the code alive', async () => {
  await send();
  const code = await lastCode(server.app, PHONE);
  for (let i = 0; i < CODE_RULES.wrongTriesPerCode - 1; i++) await check(otherCode(code), 'register', captcha);
  expect((await check(code, 'register', captcha)).statusCode).toBe(200);
});

test('a resend before 60 s is refused with 429 and the seconds left', async () => {
  await send();
  server.clock.advance(15_000);
  const early = await send();
  expect(early.statusCode).toBe(429);
  expect(early.headers['retry-after']).toBe('45');
  expect(early.json()).toMatchObject({ success: false, secondsLeft: 45, show_captcha: true });
  server.clock.advance(45_000);
  expect((await send('register', captcha)).statusCode).toBe(200);
});

test('a new code replaces the previous one of the same purpose', async () => {
  await send();
  const first = await lastCode(server.app, PHONE);
  server.clock.advance(CODE_RULES.resendAfterMs);
  await send();
  let second = await lastCode(server.app, PHONE);
  // A code is 4 random digits: the new one may repeat the old (1 time in 10 000), and then proves nothing. Send again
  // until it differs (each send replaces the one before), within the hour's sends.
  for (let sends = 2; second === first; sends += 1) {
    if (sends >= CODE_RULES.sendsPerHour) throw new Error(`every code repeated ${first}`);
    server.clock.advance(CODE_RULES.resendAfterMs);
    await send('register', captcha);
    second = await lastCode(server.app, PHONE);
  }
  expect((await check(first)).statusCode).toBe(400);
  expect((await check(second, 'register', captcha)).statusCode).toBe(200);
});

test('at most 5 sends per phone per hour', async () => {
  for (let i = 0; i < CODE_RULES.sendsPerHour; i++) {
    expect((await send('register', captcha)).statusCode).toBe(200);
    server.clock.advance(CODE_RULES.resendAfterMs);
  }
  const sixth = await send('register', captcha);
  expect(sixth.statusCode).toBe(429);
  // The first send leaves the hour 55 minutes after it was made... 5 minutes have passed.
  expect(sixth.json().secondsLeft).toBe(55 * 60);
  server.clock.advance(55 * 60_000);
  // An hour on, the payer opens the page again (the session ended after 30 idle minutes).
  await client.open();
  expect((await send('register', captcha)).statusCode).toBe(200);
});

test('the captcha is demanded after a burst and after a failure', async () => {
  const first = await send();
  expect(first.json().show_captcha).toBe(false);
  server.clock.advance(CODE_RULES.resendAfterMs);
  const second = await send();
  expect(second.json()).toMatchObject({ success: true, show_captcha: true });
  server.clock.advance(CODE_RULES.resendAfterMs);
  const third = await send();
  expect(third.statusCode).toBe(400);
  expect(third.json()).toMatchObject({ success: false, show_captcha: true, json: { show_captcha: true } });
  const wrongToken = await send('register', { captcha: 'not-a-real-token' });
  expect(wrongToken.statusCode).toBe(400);
  expect((await send('register', captcha)).statusCode).toBe(200);

  // One wrong code (a typo) asks for no robot check; the second in a row demands it for the next check.
  const code = await lastCode(server.app, PHONE);
  expect((await check(otherCode(code))).json()).toMatchObject({ show_captcha: false, json: { show_captcha: false }, triesLeft: 4 });
  expect((await check(otherCode(code))).json()).toMatchObject({ show_captcha: true, triesLeft: 3 });
  const noCaptcha = await check(code);
  expect(noCaptcha.statusCode).toBe(400);
  expect(noCaptcha.json()).toMatchObject({ error: 'Подтвердите, что вы не робот', show_captcha: true });
  expect((await check(code, 'register', captcha)).statusCode).toBe(200);
});

test('20 wrong codes in a row block the phone for 24 hours', async () => {
  let wrong = 0;
  while (wrong < CODE_RULES.wrongInARowToBlock) {
    const sent = await send('register', captcha);
    expect(sent.statusCode).toBe(200);
    const code = await lastCode(server.app, PHONE);
    for (let i = 0; i < CODE_RULES.wrongTriesPerCode && wrong < CODE_RULES.wrongInARowToBlock; i++, wrong++) {
      expect((await check(otherCode(code), 'register', captcha)).statusCode).toBe(400);
    }
    server.clock.advance(CODE_RULES.resendAfterMs);
  }
  const blocked = await send('register', captcha);
  expect(blocked.statusCode).toBe(429);
  expect(blocked.json().secondsLeft).toBeGreaterThan(23 * 3600);
  expect((await check('0000', 'register', captcha)).statusCode).toBe(429);

  server.clock.advance(CODE_RULES.blockMs);
  await client.open();
  const after = await send('register', captcha);
  expect(after.statusCode).toBe(200);
  expect((await check(await lastCode(server.app, PHONE), 'register', captcha)).statusCode).toBe(200);
});

test('a right code resets the wrong streak', async () => {
  for (let round = 0; round < 3; round++) {
    await send('register', captcha);
    const code = await lastCode(server.app, PHONE);
    for (let i = 0; i < 4; i++) await check(otherCode(code), 'register', captcha);
    expect((await check(code, 'register', captcha)).statusCode).toBe(200);
    server.clock.advance(CODE_RULES.resendAfterMs);
  }
  expect((await guardOf(server.app.store, PHONE)).wrong_streak).toBe(0);
});

test('malformed codes and phones are refused by the schema without counting', async () => {
  for (const code of ['123', '12345', 'abcd', 1234, null]) {
    expect((await check(code as string)).statusCode).toBe(400);
  }
  expect((await send('register', {}, '89990001122')).statusCode).toBe(400);
  expect((await send('launch-missiles')).statusCode).toBe(400);
  expect((await guardOf(server.app.store, PHONE)).wrong_streak).toBe(0);
});

describe('use-points codes', () => {
  const pointsBody = (extra: Record<string, unknown> = {}) => ({
    phone: '79990000001', objectOID: 'demo-points', captchaVerified: false, custNo: 'C-1001', usePoints: true, captcha: null, purpose: 'use-points', ...extra,
  });

  test('go only to the bill customer phone, for a bill with points: the server takes the phone from the bill', async () => {
    expect((await client.post('/api/send-sms/', pointsBody({ objectOID: 'demo-anon' }))).statusCode).toBe(400);
    expect((await client.post('/api/send-sms/', pointsBody({ custNo: 'C-9999' }))).statusCode).toBe(400);
    expect((await client.post('/api/send-sms/', pointsBody({ objectOID: null }))).statusCode).toBe(400);
    expect((await client.post('/api/send-sms/', pointsBody({ objectOID: 'no-such-bill' }))).statusCode).toBe(404);
    // A phone the page names is no address for a points code: the code goes to the bill's phone, never to that one.
    expect((await client.post('/api/send-sms/', pointsBody({ phone: '79990001122' }))).statusCode).toBe(200);
    expect(await textsTo(server.app, '79990001122')).toHaveLength(0);
    expect(await textsTo(server.app, '79990000001')).toHaveLength(1);
    // The check finds the code by the bill's phone too; the phone the page names does not matter.
    const code = await lastCode(server.app, '79990000001');
    const checked = await client.post('/api/check-code/', { code, phone: '79990001122', objectOID: 'demo-points', custNo: null, usePoints: true, purpose: 'use-points' });
    expect(checked.statusCode).toBe(200);
  });

  test('a code for a typed phone needs the phone; a points check needs the bill', async () => {
    const refused = await client.post('/api/send-sms/', { phone: null, objectOID: 'demo-anon', captchaVerified: false, custNo: null, usePoints: false, captcha: null, purpose: 'register' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe('Не указан телефон');
    const check = await client.post('/api/check-code/', { code: '1234', phone: null, custNo: null, usePoints: true, purpose: 'use-points' });
    expect(check.statusCode).toBe(400);
    expect(check.json().error).toBe('Не указан счет');
  });
});

describe('SMS bombing across phones', () => {
  const phones = Array.from({ length: 40 }, (_, i) => `7999100${String(i).padStart(4, '0')}`);
  const sendFrom = (c: Client, phone: string, extra: Record<string, unknown> = {}) =>
    c.post('/api/send-sms/', { phone, objectOID: 'demo-anon', captchaVerified: false, custNo: null, usePoints: false, captcha: null, purpose: 'register', ...extra });
  const fromAddress = async (address: string, app = server.app) => {
    const c = new Client(app);
    c.address = address;
    return c.open();
  };

  test('one session: three phones an hour without the robot check, a fourth needs it', async () => {
    const session = await fromAddress('10.0.0.1');
    for (const phone of phones.slice(0, CODE_RULES.phonesPerSessionHour)) expect((await sendFrom(session, phone)).statusCode).toBe(200);
    const fourth = await sendFrom(session, phones[3]!);
    expect(fourth.statusCode).toBe(400);
    expect(fourth.json()).toMatchObject({ success: false, show_captcha: true, json: { show_captcha: true } });
    expect(await textsTo(server.app, phones[3]!)).toHaveLength(0);
    expect((await sendFrom(session, phones[3]!, captcha)).statusCode).toBe(200);
    // Every further phone needs its own robot check; a phone already used does not.
    expect((await sendFrom(session, phones[4]!)).statusCode).toBe(400);
    server.clock.advance(CODE_RULES.resendAfterMs);
    expect((await sendFrom(session, phones[0]!)).statusCode).toBe(200);
    // The phone itself was not marked: its owner, in a session of their own, needs no captcha for it.
    const owner = await fromAddress('10.0.0.2');
    expect((await sendFrom(owner, phones[4]!)).statusCode).toBe(200);
  });

  test('one address: more than 5 sends in 10 minutes need the robot check, whatever the sessions', async () => {
    for (const phone of phones.slice(0, CODE_RULES.addressBurstSends)) {
      expect((await sendFrom(await fromAddress('10.0.0.3'), phone)).statusCode).toBe(200);
    }
    const sixth = await sendFrom(await fromAddress('10.0.0.3'), phones[5]!);
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json().show_captcha).toBe(true);
    // Another address is not held back by this one.
    expect((await sendFrom(await fromAddress('10.0.0.4'), phones[6]!)).statusCode).toBe(200);
    expect((await sendFrom(await fromAddress('10.0.0.3'), phones[5]!, captcha)).statusCode).toBe(200);
    server.clock.advance(CODE_RULES.addressBurstMs);
    expect((await sendFrom(await fromAddress('10.0.0.3'), phones[7]!)).statusCode).toBe(200);
  });

  test('behind a trusted proxy the address is the forwarded client\'s; without TRUST_PROXY a forwarded address counts for nothing', async () => {
    const behindProxy = await startServer({ trustProxy: ['10.9.9.9'] }, server.clock);
    try {
      // Every request arrives from the proxy's address, naming a different client each time.
      const sends = async (app: typeof server.app) => {
        const answers = [];
        for (const [i, phone] of phones.slice(0, CODE_RULES.addressBurstSends + 1).entries()) {
          const c = await fromAddress('10.9.9.9', app);
          answers.push((await c.post('/api/send-sms/', { phone, objectOID: 'demo-anon', captchaVerified: false, custNo: null, usePoints: false, captcha: null, purpose: 'register' }, { headers: { 'x-forwarded-for': `203.0.113.${i}` } })).statusCode);
        }
        return answers;
      };
      // Six clients, each its own address: none is held back.
      expect(await sends(behindProxy.app)).toEqual(Array(CODE_RULES.addressBurstSends + 1).fill(200));
      // Trusting nobody, all six are the proxy's one address: the sixth needs the robot check.
      expect(await sends(server.app)).toEqual([...Array(CODE_RULES.addressBurstSends).fill(200), 400]);
    } finally {
      await behindProxy.close();
    }
    expect(trustProxyFrom(' 127.0.0.1, 10.0.0.0/8 ,')).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(trustProxyFrom(undefined)).toEqual([]);
  });

  test('one address: at most 30 sends an hour even with the robot check; the counters are shared by server processes', async () => {
    // A second server process on the same database: the counters are rows, not memory.
    const second = await secondProcess(server);
    try {
      for (let i = 0; i < CODE_RULES.addressSendsPerHour; i++) {
        const via = await fromAddress('10.0.0.5', i % 2 ? second : server.app);
        expect((await sendFrom(via, phones[i]!, captcha)).statusCode).toBe(200);
        server.clock.advance(60_000);
      }
      for (const app of [server.app, second]) {
        const over = await sendFrom(await fromAddress('10.0.0.5', app), phones[CODE_RULES.addressSendsPerHour]!, captcha);
        expect(over.statusCode).toBe(429);
        // The first send leaves the hour 60 − 30 minutes from now.
        expect(over.json()).toMatchObject({ success: false, secondsLeft: 30 * 60 });
        expect(over.headers['retry-after']).toBe(String(30 * 60));
      }
      server.clock.advance(30 * 60_000);
      expect((await sendFrom(await fromAddress('10.0.0.5'), phones[CODE_RULES.addressSendsPerHour]!, captcha)).statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });
});
