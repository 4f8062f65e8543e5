import { CODE_RULES } from '../../../server/accounts/codes';
import { guessCodes } from '../../support/codeGuessing';
import { lastCode, openPage, startServer } from '../helpers';

const PHONE = '79990004455';
const DAY = 24 * 60 * 60_000;
/**
 * Enough guesses to span several fake days of 24-hour blocks, on either engine; the bench (`npm run bench`, its
 * otpBruteForce figure) sends the attacker's full 10,000.
 */
const GUESSES = 400;

/*
 * An attacker who solves every captcha and asks for a new code whenever the rules allow sends wrong codes for one
 * phone over several days. None is accepted, and the caps hold: at most 20 codes are even looked at per 24 hours, at
 * most 5 codes are sent per hour.
 */
test(`${GUESSES.toLocaleString('en-US')} wrong codes for one phone: none accepted, at most 20 evaluated per day`, async () => {
  const server = await startServer();
  const client = await openPage(server.app);
  const start = server.clock.now();
  const { accepted, evaluated, codesSent, blocked } = await guessCodes(
    {
      post: (url, body) => client.post(url, body),
      lastCode: () => lastCode(server.app, PHONE),
      wait: (ms) => server.clock.advance(ms),
      reopen: async () => void (await client.open()),
      // Every refusal that is not a wrong code looked at is a cap's 429.
      refused: (statusCode) => expect(statusCode).toBe(429),
    },
    PHONE,
    GUESSES,
  );

  expect(accepted).toBe(0);
  const days = Math.ceil((server.clock.now() - start + 1) / DAY);
  expect(days).toBeGreaterThanOrEqual(3);
  expect(evaluated).toBeLessThanOrEqual(CODE_RULES.wrongInARowToBlock * days);
  const hours = Math.ceil((server.clock.now() - start + 1) / (60 * 60_000));
  expect(codesSent).toBeLessThanOrEqual(CODE_RULES.sendsPerHour * hours);
  expect(blocked).toBeGreaterThan(0);
  // Nothing verified, so nothing can be registered or spent with this phone.
  expect(await server.app.store.db.selectFrom('phone_verifications').selectAll().execute()).toEqual([]);
  await server.close();
}, 120_000);
