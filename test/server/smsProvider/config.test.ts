import { defaultOptions, smsConfigProblem } from '../../../server/config';
import { optionsFromEnv } from '../../../server/environment';
import { startServer } from '../helpers';

/** SMSRU_*: the sandbox's own fake by default; with the sandbox off the server will not start without a provider. */

const acquirer = { acquirerUrl: 'https://bank.example/payment/rest/', acquirerToken: 't', acquirerCallbackKey: 'k' };

test('the variables: SMSRU_API_ID, SMSRU_URL and SMSRU_FROM, all unset by default', () => {
  expect(optionsFromEnv({})).toMatchObject({ smsruApiId: null, smsruUrl: null, smsruFrom: null });
  expect(optionsFromEnv({ SMSRU_API_ID: 'key', SMSRU_URL: 'https://sms.example/', SMSRU_FROM: 'DemoShop' })).toMatchObject({
    smsruApiId: 'key',
    smsruUrl: 'https://sms.example/',
    smsruFrom: 'DemoShop',
  });
  // Empty is unset.
  expect(optionsFromEnv({ SMSRU_API_ID: '', SMSRU_URL: '', SMSRU_FROM: '' })).toMatchObject({ smsruApiId: null, smsruUrl: null, smsruFrom: null });
});

test.each([
  [{ sandbox: true }, null],
  [{ sandbox: true, smsruApiId: 'key' }, null],
  [{ sandbox: false, smsruApiId: 'key' }, null],
  [{ sandbox: false, smsruApiId: 'key', smsruUrl: 'http://sms.internal:8080/api/' }, null],
  [{ sandbox: false }, 'SMSRU_API_ID is not set'],
  // A URL alone with the sandbox on is a half-made setting, not the sandbox's fake.
  [{ sandbox: true, smsruUrl: 'https://sms.ru/' }, 'SMSRU_API_ID is not set'],
  [{ sandbox: false, smsruApiId: 'key', smsruUrl: 'https://sms.ru' }, 'SMSRU_URL must be an http(s) URL ending in /'],
  [{ sandbox: false, smsruApiId: 'key', smsruUrl: 'ftp://sms.ru/' }, 'SMSRU_URL must be an http(s) URL ending in /'],
])('%j: %s', (options, problem) => {
  const found = smsConfigProblem(defaultOptions(options));
  if (problem === null) expect(found).toBeNull();
  else expect(found).toContain(problem);
});

test('with the sandbox off and no SMS provider the server refuses to start, naming the variable and the README section', async () => {
  await expect(startServer({ sandbox: false, ...acquirer })).rejects.toThrow(
    'Cannot start: SMSRU_API_ID is not set (the SMS.ru account\'s api_id). See README, "Connecting an SMS provider".',
  );
});
