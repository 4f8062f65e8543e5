import type { Api } from './api';

/**
 * The page's API (api.ts) with its HTTP client (http.ts, ky), loaded with its first call: the first step renders from the
 * data the page carries and calls nothing until the payer presses Continue, so none of it is in the first scripts
 * (initialJsGzipBytes in docs/benchmarks.md); the page loads it in the background once the first step is painted.
 * Every call waits for the module, then is the loaded API's. `load` is asked again after a failure.
 */
export function apiOnDemand(load: () => Promise<Api>): Api & { preload(): Promise<Api> } {
  let loading: Promise<Api> | null = null;
  const preload = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    }));
  return new Proxy({} as Api & { preload(): Promise<Api> }, {
    get: (_, name) => {
      if (name === 'preload') return preload;
      // Not a promise itself: `await api` is the API, not a call.
      if (typeof name !== 'string' || name === 'then') return undefined;
      return (...args: unknown[]) => preload().then((api) => (api[name as keyof Api] as (...a: unknown[]) => Promise<unknown>)(...args));
    },
  });
}
