import type { FastifyInstance } from 'fastify';
import { textsOfPhone } from '../../../server/accounts/textQueries';
import { textSeal } from '../../../server/accounts/sealedText';
import { DELIVERY_READ_EVERY_MS, STATUS_READ_DELAYS_MS, textOutbox } from '../../../server/accounts/texts';
import { injectFetch } from '../../support/injectFetch';
import { DEV_CAPTCHA_TOKEN, lastCode, openPage, secondProcess, serverWithPage, smsFault, startStore, textsTo, type Client, type TestServer } from '../helpers';

/**
 * The SMS outbox against the sandbox's SMS.ru fake (its faults switched by the test): a text written with its code and
 * sent after the commit, the payer told when the provider did not take it, retries on the schedule with the same words,
 * never a repeat once taken, never a text for a dead code, the provider's id and delivery kept, and nothing lost in a
 * restart.
 */

const PHONE = '79995550011';
let server: TestServer;
let client: Client;
beforeEach(async () => ({ server, client } = await serverWithPage('demo-anon', { smsRetryScheduleMs: [5_000, 15_000] })));
afterEach(() => server.close());

const askCode = (c: Client = client, captcha: string | null = null) =>
  c.post('/api/send-sms/', { phone: PHONE, objectOID: 'demo-anon', captchaVerified: false, custNo: null, usePoints: false, captcha, purpose: 'register' });
const outbox = () => textsOfPhone(server.app.store, PHONE, 10);
/** A code asked while the provider is down: the payer hears it (503), its text stays pending; then the provider is back. */
async function askedWhileDown() {
  await smsFault(server.app, 'provider-500');
  expect((await askCode()).statusCode).toBe(503);
  await smsFault(server.app, 'provider-500', false);
}
/** One round of the text worker, and the provider's callbacks it brought about. */
async function workerRound() {
  await server.app.texts.runOnce();
  await server.app.background.idle();
}

test("a code's text goes out right after the commit: the provider's id and delivery are kept, the words are not", async () => {
  const answer = await askCode();
  expect(answer.statusCode).toBe(200);
  await server.app.background.idle();
  const code = await lastCode(server.app, PHONE);
  const [text] = await outbox();
  const [delivered] = await textsTo(server.app, PHONE);
  expect(text).toMatchObject({ kind: 'code', state: 'accepted', attempts: 1, sealed_text: null, sms_id: delivered!.sms_id, error: null });
  // The provider's callback told of the delivery; the server read it from the provider.
  expect(text).toMatchObject({ delivery: 'delivered', status_code: 103, status_reads: 1, next_status_at: null });
  expect(JSON.stringify(text)).not.toContain(code);
  // The code itself is only a salted hash.
  const stored = await server.app.store.db.selectFrom('sms_codes').selectAll().where('phone', '=', PHONE).executeTakeFirstOrThrow();
  expect(JSON.stringify(stored)).not.toContain(`"${code}"`);
});

test('with the callback lost, the delivery is read on its schedule: a text the phone never got is there for support', async () => {
  await smsFault(server.app, 'callback-lost');
  await smsFault(server.app, 'delivery-fails', true, PHONE);
  expect((await askCode()).statusCode).toBe(200);
  await workerRound();
  expect(await outbox()).toEqual([expect.objectContaining({ state: 'accepted', delivery: 'on the way', status_code: 100, status_reads: 0 })]);
  server.clock.advance(STATUS_READ_DELAYS_MS[0]);
  await workerRound();
  expect(await outbox()).toEqual([expect.objectContaining({ delivery: 'not delivered', status_code: 106, status_reads: 1, next_status_at: null })]);
});

test('the provider down: the payer hears it (503), the text is retried on the schedule with its words, taken once, never repeated', async () => {
  await smsFault(server.app, 'provider-500');
  const refused = await askCode();
  expect(refused.statusCode).toBe(503);
  expect(refused.headers['retry-after']).toBe('60');
  expect(refused.json()).toMatchObject({ success: false, sms_failed: true, error: 'Не удалось отправить СМС. Попробуйте ещё раз через минуту' });
  expect(await outbox()).toEqual([
    expect.objectContaining({ state: 'pending', attempts: 1, next_attempt_at: server.clock.now() + 5_000, sealed_text: expect.any(String), error: 'sms/send: HTTP 500' }),
  ]);

  // Not due yet: nothing is tried.
  server.clock.advance(4_999);
  await workerRound();
  expect((await outbox())[0]!.attempts).toBe(1);
  server.clock.advance(1);
  await workerRound();
  expect(await outbox()).toEqual([expect.objectContaining({ state: 'pending', attempts: 2, next_attempt_at: server.clock.now() + 15_000 })]);

  await smsFault(server.app, 'provider-500', false);
  server.clock.advance(15_000);
  await workerRound();
  expect(await outbox()).toEqual([expect.objectContaining({ state: 'accepted', attempts: 3, sealed_text: null })]);
  expect(await textsTo(server.app, PHONE)).toHaveLength(1);
  // The code that came late is the live one: it checks.
  const checked = await client.post('/api/check-code/', { code: await lastCode(server.app, PHONE), phone: PHONE, custNo: null, usePoints: false, purpose: 'register' });
  expect(checked.statusCode).toBe(200);

  server.clock.advance(60 * 60_000);
  await workerRound();
  expect(await textsTo(server.app, PHONE)).toHaveLength(1);
});

test('a code taken only on a retry: asking again takes the payer to its code screen, with no new code and no robot check', async () => {
  await askedWhileDown();
  server.clock.advance(5_000);
  await workerRound();
  expect(await textsTo(server.app, PHONE)).toHaveLength(1);

  const again = await askCode();
  expect(again.statusCode).toBe(200);
  expect(again.json()).toMatchObject({ success: true, show_captcha: false, secondsLeft: 55 });
  expect(await textsTo(server.app, PHONE)).toHaveLength(1);
  expect(await server.app.store.db.selectFrom('sms_codes').select('state').where('phone', '=', PHONE).execute()).toEqual([{ state: 'active' }]);
  // Another session asking for the phone meanwhile is refused as ever: the rule is the minute since the last text.
  expect((await askCode(await openPage(server.app))).statusCode).toBe(429);
});

test('retries are bounded: after the last delay of the schedule the text is given up, its words erased', async () => {
  await smsFault(server.app, 'provider-500');
  expect((await askCode()).statusCode).toBe(503);
  server.clock.advance(5_000);
  await workerRound();
  server.clock.advance(15_000);
  await workerRound();
  expect(await outbox()).toEqual([expect.objectContaining({ state: 'failed', attempts: 3, sealed_text: null })]);
  await smsFault(server.app, 'provider-500', false);
  server.clock.advance(60_000);
  await workerRound();
  expect(await textsTo(server.app, PHONE)).toHaveLength(0);
});

test('a text whose code has expired, or died for a newer one, is never sent', async () => {
  await askedWhileDown();
  // The code's ten minutes are over before the next try.
  server.clock.advance(10 * 60_000 + 1);
  await workerRound();
  expect(await outbox()).toEqual([expect.objectContaining({ state: 'expired', sealed_text: null })]);
  expect(await textsTo(server.app, PHONE)).toHaveLength(0);

  // Not taken, it was never the payer's to wait for: they may ask again at once, and the older text dies with its code.
  await askedWhileDown();
  // (A third send within the hour needs the robot check, as any burst does.)
  expect((await askCode(client, DEV_CAPTCHA_TOKEN)).statusCode).toBe(200);
  server.clock.advance(5_000);
  await workerRound();
  expect((await outbox()).map((text) => text.state)).toEqual(['accepted', 'expired', 'expired']);
  expect(await textsTo(server.app, PHONE)).toHaveLength(1);
});

test('refused for the phone: the payer hears it, it is not retried, its code is void, and the next send works', async () => {
  await smsFault(server.app, 'send-refused', true, PHONE);
  const refused = await askCode();
  expect(refused.statusCode).toBe(503);
  expect(refused.json()).toMatchObject({ sms_failed: true });
  expect(await outbox()).toEqual([expect.objectContaining({ state: 'refused', status_code: 207, sealed_text: null, error: expect.stringContaining('207') })]);
  expect(await server.app.store.db.selectFrom('sms_codes').select('state').where('phone', '=', PHONE).execute()).toEqual([{ state: 'void' }]);
  server.clock.advance(60_000);
  await workerRound();
  expect(await textsTo(server.app, PHONE)).toHaveLength(0);

  await smsFault(server.app, 'send-refused', false, PHONE);
  expect((await askCode()).statusCode).toBe(200);
  expect(await textsTo(server.app, PHONE)).toHaveLength(1);
  // Taken, it counts: the next code waits for the minute.
  expect((await askCode()).statusCode).toBe(429);
});

test('a send that timed out may have gone out: its retry carries the very same words, never a second code', async () => {
  await server.close();
  ({ server, client } = await serverWithPage('demo-anon', { smsRetryScheduleMs: [5_000], smsTimeoutMs: 1_000 }));
  await smsFault(server.app, 'provider-timeout');
  expect((await askCode()).statusCode).toBe(503);
  await smsFault(server.app, 'provider-timeout', false);
  server.clock.advance(5_000);
  await workerRound();
  const received = await textsTo(server.app, PHONE);
  expect(received).toHaveLength(2);
  expect(received[0]!.text).toBe(received[1]!.text);
  expect(await outbox()).toEqual([expect.objectContaining({ state: 'accepted', attempts: 2 })]);
});

test('nothing is lost in a restart: a text whose process stopped before sending it is sent by the next, once its hold ran out', async () => {
  // Queued with its code as the send route does, and then the process stops before its own first try.
  const textId = await server.app.store.transaction((tx) =>
    server.app.texts.queue(tx, { phone: PHONE, kind: 'code', codeId: null, sessionId: null, text: 'Код подтверждения: 4321. Действует 10 минут.', sendUntil: tx.now() + 10 * 60_000 }),
  );
  await server.app.close();

  // The next process is the only one left: its own SMS.ru fake answers it.
  const built: { app?: FastifyInstance } = {};
  const next = await secondProcess(server, { smsruFetch: injectFetch(() => built.app!) });
  built.app = next;
  try {
    // The stopped process's hold still runs: the text is not taken from under it.
    await next.texts.runOnce();
    expect(await textsTo(next, PHONE)).toHaveLength(0);
    server.clock.advance(10_000 + 30_000);
    await next.texts.runOnce();
    expect((await textsTo(next, PHONE)).map((text) => text.text)).toEqual(['Код подтверждения: 4321. Действует 10 минут.']);
    expect(await textsOfPhone(next.store, PHONE, 5)).toEqual([expect.objectContaining({ id: textId, state: 'accepted', sealed_text: null })]);
  } finally {
    await next.close();
    server.app = next;
  }
});

test('the worker sends on its own once started, and stops cleanly', async () => {
  await askedWhileDown();
  server.clock.advance(5_000);
  server.app.texts.start();
  try {
    for (let round = 0; round < 200 && (await outbox())[0]!.state !== 'accepted'; round += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await outbox())[0]!.state).toBe('accepted');
  } finally {
    await server.app.texts.stop();
  }
});

describe("the provider's callback names a text: a hint, never an amplifier", () => {
  /** A text the provider took and has not delivered yet (it says 102, on the way); its own callback lost. */
  async function textOnTheWay(): Promise<string> {
    await smsFault(server.app, 'callback-lost');
    expect((await askCode()).statusCode).toBe(200);
    const [text] = await outbox();
    await server.app.store.db.updateTable('sandbox_smsru_texts').set({ status_code: 102 }).where('sms_id', '=', text!.sms_id!).execute();
    expect(text).toMatchObject({ state: 'accepted', delivery: 'on the way', status_reads: 0 });
    return text!.sms_id!;
  }
  /** A callback as the provider posts it (form-encoded data[] records), to one process. */
  const callback = (app: FastifyInstance, records: string[]) =>
    app.inject({
      method: 'POST',
      url: '/api/smsru/callback',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(records.map((record) => ['data[]', record])).toString(),
    });
  const record = (smsId: string) => `sms_status\n${smsId}\n102\n1768467600`;
  /** The sms/status calls the provider has had. */
  const statusCalls = () => server.app.smsruFake!.callsOf('sms/status');

  test('one callback naming an undelivered text 100 times makes one status call', async () => {
    const smsId = await textOnTheWay();
    const before = statusCalls();
    const answer = await callback(server.app, Array.from({ length: 100 }, () => record(smsId)));
    expect([answer.statusCode, answer.body]).toEqual([200, '100']);
    await server.app.background.idle();
    expect(statusCalls() - before).toBe(1);
    expect(await outbox()).toEqual([expect.objectContaining({ delivery: 'on the way', status_code: 102, status_reads: 1 })]);
  });

  test('20 callbacks in a second naming it, half to another process, make one status call; the next is allowed 10 s after it', async () => {
    const smsId = await textOnTheWay();
    const second = await secondProcess(server);
    try {
      const before = statusCalls();
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => callback(i % 2 === 0 ? server.app : second, [record(smsId)])));
      expect(answers.map((answer) => answer.body)).toEqual(Array(20).fill('100'));
      await Promise.all([server.app.background.idle(), second.background.idle()]);
      expect(statusCalls() - before).toBe(1);

      // Nor does the worker read it again meanwhile, even when its scheduled read falls due.
      await server.app.store.db.updateTable('sms_messages').set({ next_status_at: server.clock.now() }).execute();
      server.clock.advance(DELIVERY_READ_EVERY_MS - 1);
      await callback(second, [record(smsId)]);
      await Promise.all([workerRound(), second.background.idle()]);
      expect(statusCalls() - before).toBe(1);

      server.clock.advance(1);
      await callback(second, [record(smsId)]);
      await second.background.idle();
      expect(statusCalls() - before).toBe(2);
      expect((await outbox())[0]).toMatchObject({ delivery: 'on the way', status_reads: 2 });
    } finally {
      await second.close();
    }
  });

  test('a text delivered, or unknown, is not read at all', async () => {
    await smsFault(server.app, 'callback-lost');
    expect((await askCode()).statusCode).toBe(200);
    const [text] = await outbox();
    server.clock.advance(STATUS_READ_DELAYS_MS[0]);
    await workerRound();
    expect((await outbox())[0]).toMatchObject({ delivery: 'delivered' });
    const before = statusCalls();
    await callback(server.app, [record(text!.sms_id!), record('000000-99999999'), 'sms_status\nnot an id\n103']);
    await server.app.background.idle();
    expect(statusCalls()).toBe(before);
  });
});

test("a callback that overtakes the send's answer is not lost: the text is read as soon as its send is recorded", async () => {
  const t = await startStore();
  try {
    const later: Promise<void>[] = [];
    let statusReads = 0;
    // The provider posts its callback (here: the hint itself) before its answer to the send comes back.
    const texts: ReturnType<typeof textOutbox> = textOutbox({
      store: t.store,
      provider: {
        async send() {
          await texts.readDelivery('000000-00000001');
          return { smsId: '000000-00000001' };
        },
        async status() {
          statusReads += 1;
          return { statusCode: 103, delivery: 'delivered' };
        },
      },
      seal: await textSeal(t.store),
      retryScheduleMs: [],
      timeoutMs: 1_000,
      pollMs: 60_000,
      log: () => {},
      later: (_name, task) => void later.push(task()),
    });
    const id = await t.store.transaction((tx) => texts.queue(tx, { phone: PHONE, kind: 'code', sessionId: null, text: 'Код: 1234', sendUntil: tx.now() + 60_000 }));
    expect(statusReads).toBe(0);
    expect(await texts.sendQueued(id)).toBe('accepted');
    await Promise.all(later);
    expect(later).toHaveLength(1);
    expect(statusReads).toBe(1);
    expect(await textsOfPhone(t.store, PHONE, 1)).toEqual([expect.objectContaining({ delivery: 'delivered', status_code: 103, status_reads: 1 })]);
  } finally {
    await t.close();
  }
});

describe('the words never reach a log', () => {
  test('the outbox logs what became of a text, never its words', async () => {
    const t = await startStore();
    try {
      const logged: string[] = [];
      const texts = textOutbox({
        store: t.store,
        provider: { send: () => Promise.reject(new Error('unreachable')), status: () => Promise.reject(new Error('unreachable')) },
        seal: await textSeal(t.store),
        retryScheduleMs: [],
        timeoutMs: 1_000,
        pollMs: 60_000,
        log: (message, error) => logged.push(`${message} ${String(error ?? '')}`),
      });
      const id = await t.store.transaction((tx) => texts.queue(tx, { phone: PHONE, kind: 'password', sessionId: null, text: 'Ваш новый пароль: Secret2345', sendUntil: tx.now() + 60_000 }));
      expect(await texts.sendQueued(id)).toBe('failed');
      expect(logged.join('\n')).toContain(`text ${id} (password) failed`);
      expect(logged.join('\n')).not.toContain('Secret2345');
    } finally {
      await t.close();
    }
  });
});
