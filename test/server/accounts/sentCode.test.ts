import { CODE_RULES } from '../../../server/accounts/codes';
import { maskPhone } from '../../../src/services/rules/phone';
import { lastCode, openPage, startServer, type Client, type TestServer } from '../helpers';

/**
 * A reload on the code screen: the initial data tells the page about the code THIS session had sent and
 * may still enter: its purpose, the phone masked, the seconds until it may be sent again. No other session's code,
 * nor a spent or expired one.
 */

const PHONE = '79990000001'; // demo-points' customer, who owns the points
let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

const sendPointsCode = (client: Client) =>
  client.post('/api/send-sms/', { phone: PHONE, objectOID: 'demo-points', captchaVerified: false, custNo: 'C-1001', usePoints: true, captcha: null, purpose: 'use-points' });
const sentCode = async (client: Client, bill = 'demo-points') => (await client.get(`/ajax/object-info/${bill}`)).json().sentCode;

test('the own session sees its points code with the resend countdown the server counts, until it may be sent again', async () => {
  const client = await openPage(server.app, 'demo-points');
  expect(await sentCode(client)).toBeNull();
  expect((await sendPointsCode(client)).statusCode).toBe(200);
  server.clock.advance(20_500);
  expect(await sentCode(client)).toEqual({ purpose: 'use-points', phone: '+7 (999) ***-**-01', secondsLeft: 40 });
  server.clock.advance(CODE_RULES.resendAfterMs);
  expect(await sentCode(client)).toEqual({ purpose: 'use-points', phone: '+7 (999) ***-**-01', secondsLeft: 0 });
});

test('another session does not see it, nor another bill', async () => {
  const mine = await openPage(server.app, 'demo-points');
  await sendPointsCode(mine);
  const other = await openPage(server.app, 'demo-points');
  expect(await sentCode(other)).toBeNull();
  // A points code confirms this bill's customer only: another bill's page is not offered it.
  expect(await sentCode(mine, 'demo-anon')).toBeNull();
  expect(await sentCode(mine)).toMatchObject({ purpose: 'use-points' });
});

test('an expired code is not offered, nor a spent one', async () => {
  const client = await openPage(server.app, 'demo-points');
  await sendPointsCode(client);
  server.clock.advance(CODE_RULES.lifeMs);
  expect(await sentCode(client)).toBeNull();

  server.clock.advance(CODE_RULES.resendAfterMs);
  expect((await sendPointsCode(client)).statusCode).toBe(200);
  expect(await sentCode(client)).toMatchObject({ purpose: 'use-points', secondsLeft: 60 });
  const checked = await client.post('/api/check-code/', { code: await lastCode(server.app, PHONE), phone: null, objectOID: 'demo-points', custNo: 'C-1001', usePoints: true, purpose: 'use-points' });
  expect(checked.statusCode).toBe(200);
  expect(await sentCode(client)).toBeNull();
});

test('maskPhone writes the phone as the page does, the middle hidden', () => {
  expect(maskPhone('79990000001')).toBe('+7 (999) ***-**-01');
  expect(maskPhone('123')).toBe('***');
  // The bill's phone reaches the page masked already (object-info): masking it again keeps it, so a draft made from it
  // still matches the server's sentCode after a reload.
  expect(maskPhone('+7 (999) ***-**-01')).toBe('+7 (999) ***-**-01');
  expect(maskPhone('+7 (999) ***-**-0')).toBe('***');
});
