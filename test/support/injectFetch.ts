import type { FastifyInstance } from 'fastify';

/**
 * A fetch that reaches the app itself through `inject` (server tests do not listen): the RBS adapter and the sandbox's
 * callbacks run their real code (form bodies, status codes, JSON, time-outs by the request's signal) without a socket.
 */
export function injectFetch(appOf: () => FastifyInstance): typeof fetch {
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const answer = appOf().inject({
      method: (init.method ?? 'GET') as 'GET' | 'POST',
      url: `${url.pathname}${url.search}`,
      headers,
      ...(typeof init.body === 'string' ? { payload: init.body } : {}),
    });
    const signal = init.signal;
    const aborted = new Promise<never>((_, reject) => {
      if (!signal) return;
      if (signal.aborted) reject(signal.reason as Error);
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });
    const response = await Promise.race([answer, aborted]);
    return new Response(response.body, { status: response.statusCode, headers: { 'content-type': String(response.headers['content-type'] ?? 'text/plain') } });
  };
}
