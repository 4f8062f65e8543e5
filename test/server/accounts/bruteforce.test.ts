import { CODE_RULES } from '../../../server/accounts/codes';
import { SESSION_LIFE } from '../../../server/accounts/sessions';
import { DEV_CAPTCHA_TOKEN, lastCode, openPage, startServer, testEngine } from '../helpers';

const PHONE = '79990004455';
const DAY = 24 * 60 * 60_000;
/**
 * On PostgreSQL every statement is a network round trip (20,000 requests of a few statements each would take minutes
 * on a shared machine): the same rules are held against 2,000 guesses there, still dozens of 24-hour blocks. The bench
 * sends the full 10,000 on both engines.
 */
const GUESSES = testEngine() === 'postgres' ? 2_000 : 10_000;

/*
 * An attacker who solves every captcha and asks for a new code whenever the rules allow sends 10,000 wrong codes
 * for one phone. None is accepted, and the caps hold: at most 20 codes are even looked at per 24 hours, at most
 * 5 codes are sent per hour.
 */
test(`${GUESSES.toLocaleString('en-US')} wrong codes for one phone: none accepted, at most 20 evaluated per day`, async () => {
  const server = await startServer();
  const client = await openPage(server.app);
  const start = server.clock.now();
  let liveCode: string | null = null;
  let triesOnCode = 0;
  let accepted = 0;
  let evaluated = 0;
  let refusedBlocked = 0;
  let codesSent = 0;

  for (let guess = 0; guess < GUESSES; guess++) {
    if (!liveCode || triesOnCode >= CODE_RULES.wrongTriesPerCode) {
      const sent = await client.post('/api/send-sms/', {
        phone: PHONE, objectOID: 'demo-anon', captchaVerified: true, custNo: null, usePoints: false, captcha: DEV_CAPTCHA_TOKEN, purpose: 'register',
      });
      if (sent.statusCode === 200) {
        codesSent++;
        liveCode = await lastCode(server.app, PHONE);
        triesOnCode = 0;
      } else {
        expect(sent.statusCode).toBe(429);
        // Wait exactly as long as the server says, then go on guessing against whatever is left; after a wait that
        // ended the session (30 idle minutes), open the page again.
        const wait = sent.json().secondsLeft * 1000;
        server.clock.advance(wait);
        if (wait >= SESSION_LIFE.idleMs) await client.open();
      }
    }
    // A wrong code by construction: anything but the code the server sent.
    const real = Number(liveCode ?? '0');
    const wrong = String((real + 1 + (guess % 9_999)) % 10_000).padStart(4, '0');
    const answer = await client.post('/api/check-code/', {
      code: wrong, phone: PHONE, custNo: null, usePoints: false, purpose: 'register', captcha: DEV_CAPTCHA_TOKEN,
    });
    if (answer.statusCode === 200) accepted++;
    else if (answer.statusCode === 400) {
      evaluated++;
      triesOnCode++;
    } else {
      expect(answer.statusCode).toBe(429);
      refusedBlocked++;
      liveCode = null;
    }
  }

  expect(accepted).toBe(0);
  const days = Math.ceil((server.clock.now() - start + 1) / DAY);
  expect(evaluated).toBeLessThanOrEqual(CODE_RULES.wrongInARowToBlock * days);
  const hours = Math.ceil((server.clock.now() - start + 1) / (60 * 60_000));
  expect(codesSent).toBeLessThanOrEqual(CODE_RULES.sendsPerHour * hours);
  expect(refusedBlocked).toBeGreaterThan(0);
  // Nothing verified, so nothing can be registered or spent with this phone.
  expect(await server.app.store.db.selectFrom('phone_verifications').selectAll().execute()).toEqual([]);
  await server.close();
}, 120_000);
