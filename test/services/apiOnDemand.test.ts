import type { Api } from '../../src/services/api';
import { apiOnDemand } from '../../src/services/apiOnDemand';
import { deferred } from '../fixtures/fakes';

/** The API loaded with its first call: every call waits for the module, and a failed load is asked again. */

/** An API whose every call answers with its name and arguments. */
const echoApi = () =>
  new Map<string, (...args: unknown[]) => Promise<unknown>>([
    ['objectInfo', async (...args) => ['objectInfo', ...args]],
    ['checkEmail', async (...args) => ['checkEmail', ...args]],
  ]);
const asApi = (calls: ReturnType<typeof echoApi>) => Object.fromEntries(calls) as unknown as Api;

test('a call made before the module is here waits for it, then is the loaded call', async () => {
  const module = deferred<Api>();
  let loads = 0;
  const api = apiOnDemand(() => {
    loads++;
    return module.promise;
  });
  const answer = api.checkEmail('payer@example.com');
  const other = api.objectInfo('bill-1', null);
  module.resolve(asApi(echoApi()));
  await expect(answer).resolves.toEqual(['checkEmail', 'payer@example.com']);
  await expect(other).resolves.toEqual(['objectInfo', 'bill-1', null]);
  expect(loads).toBe(1);
});

test('every call of the API is there before it loads, and preload loads it once', async () => {
  let loads = 0;
  const api = apiOnDemand(async () => {
    loads++;
    return asApi(echoApi());
  });
  for (const name of ['objectInfo', 'checkEmail', 'freeCallLock', 'freeCall', 'checkUser', 'getUser', 'register', 'restorePassword', 'login', 'logout', 'getPaymentUrl', 'offerText', 'sbpBanks', 'getResult', 'sendCode', 'checkCode']) {
    expect(typeof (api as unknown as Record<string, unknown>)[name]).toBe('function');
  }
  // Not a promise itself: awaiting the API gives the API, not a call.
  expect((api as unknown as { then?: unknown }).then).toBeUndefined();
  await api.preload();
  await api.preload();
  expect(loads).toBe(1);
});

test('a load that failed fails its call, and the next call loads again', async () => {
  let loads = 0;
  const api = apiOnDemand(async () => {
    loads++;
    if (loads === 1) throw new Error('chunk lost');
    return asApi(echoApi());
  });
  await expect(api.checkEmail('a@b.c')).rejects.toThrow('chunk lost');
  await expect(api.checkEmail('a@b.c')).resolves.toEqual(['checkEmail', 'a@b.c']);
  expect(loads).toBe(2);
});
