import type { FastifyInstance } from 'fastify';
import { SANDBOX_CALL_HEADER } from '../../server/sandbox/rbsFake';

/** A fetch into the app, and the time-out of a call of it run out on demand. */
export interface InjectFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /**
   * Ends the call named `call` (the SANDBOX_CALL_HEADER each call carries) as its time-out would: its signal aborts with
   * a TimeoutError. Answers whether that call was still waiting.
   */
  runOut(call: string): boolean;
}

/**
 * A fetch that reaches the app itself through `inject` (server tests do not listen): the RBS adapter and the sandbox's
 * callbacks run their real code (form bodies, status codes, JSON, time-outs by the request's signal) without a socket.
 * Each call is named in SANDBOX_CALL_HEADER, so that a test can run out the time-out of a call whose answer the fake
 * holds back instead of waiting it out.
 */
export function injectFetch(appOf: () => FastifyInstance): InjectFetch {
  let calls = 0;
  const waiting = new Map<string, (reason: Error) => void>();
  const doFetch = async (input: string | URL | Request, init: RequestInit = {}) => {
    const call = String((calls += 1));
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = { ...Object.fromEntries(new Headers(init.headers).entries()), [SANDBOX_CALL_HEADER]: call };
    const answer = appOf().inject({
      method: (init.method ?? 'GET') as 'GET' | 'POST',
      url: `${url.pathname}${url.search}`,
      headers,
      ...(typeof init.body === 'string' ? { payload: init.body } : {}),
    });
    const signal = init.signal;
    const aborted = new Promise<never>((_, reject) => {
      waiting.set(call, reject);
      if (!signal) return;
      if (signal.aborted) reject(signal.reason as Error);
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });
    try {
      const response = await Promise.race([answer, aborted]);
      return new Response(response.body, { status: response.statusCode, headers: { 'content-type': String(response.headers['content-type'] ?? 'text/plain') } });
    } finally {
      waiting.delete(call);
    }
  };
  const runOut = (call: string) => {
    const reject = waiting.get(call);
    // What AbortSignal.timeout's abort rejects a fetch with.
    reject?.(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    return reject !== undefined;
  };
  return Object.assign(doFetch, { runOut });
}
