import type { Api } from './api';

/** Every call of the API, by name: TypeScript refuses the list until it names each one, and no other. */
const callNames = Object.keys({
  objectInfo: true,
  checkEmail: true,
  freeCallLock: true,
  freeCall: true,
  checkUser: true,
  getUser: true,
  register: true,
  restorePassword: true,
  login: true,
  logout: true,
  getPaymentUrl: true,
  offerText: true,
  sbpBanks: true,
  getResult: true,
  sendCode: true,
  checkCode: true,
} satisfies Record<keyof Api, true>) as (keyof Api)[];

/**
 * The page's API (api.ts) with its HTTP client (http.ts, ky), loaded with its first call: the first step renders from the
 * data the page carries and calls nothing until the payer presses Continue, so none of it is in the first scripts
 * (initialJsGzipBytes in docs/benchmarks.md); the page loads it in the background once the first step is painted.
 * Each call waits for the module, then is the loaded API's: no call depends on the order of loading. `load` is asked
 * again after a failure, and the call that asked fails as the API would.
 */
export function apiOnDemand(load: () => Promise<Api>): Api & { preload(): Promise<Api> } {
  let loading: Promise<Api> | null = null;
  const preload = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    }));
  const waitingFor = (name: keyof Api) => (...args: unknown[]) => preload().then((api) => (api[name] as (...given: unknown[]) => Promise<unknown>)(...args));
  const calls = Object.fromEntries(callNames.map((name) => [name, waitingFor(name)])) as unknown as Api;
  return { ...calls, preload };
}
