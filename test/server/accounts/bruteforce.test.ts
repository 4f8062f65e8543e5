import { CODE_RULES } from '../../../server/accounts/codes';
import { guessCodes } from '../../support/codeGuessing';
import { lastCode, openPage, startServer, testEngine } from '../helpers';

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
// 20,000 requests: about 20 s on an idle machine, several times that when the machine is shared; the time-out leaves room.
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
  expect(evaluated).toBeLessThanOrEqual(CODE_RULES.wrongInARowToBlock * days);
  const hours = Math.ceil((server.clock.now() - start + 1) / (60 * 60_000));
  expect(codesSent).toBeLessThanOrEqual(CODE_RULES.sendsPerHour * hours);
  expect(blocked).toBeGreaterThan(0);
  // Nothing verified, so nothing can be registered or spent with this phone.
  expect(await server.app.store.db.selectFrom('phone_verifications').selectAll().execute()).toEqual([]);
  await server.close();
}, 300_000);
