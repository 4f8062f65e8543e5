import { http, HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';

type Method = 'get' | 'post';

/** What the page asked the server, in order, for assertions on payloads. */
export interface SeenRequest {
  method: string;
  path: string;
  /** The query, '?…' or ''. */
  search: string;
  body: unknown;
}

/**
 * The server side of a model path: every answer is scripted by the model event that causes the request, and
 * any request nobody scripted is an error (onUnhandledRequest 'error'), so a path fails on a call it did not expect.
 */
export function modelServer() {
  const server = setupServer();
  const seen: SeenRequest[] = [];

  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    void request
      .clone()
      .text()
      .then((text) => {
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          body = Object.fromEntries(new URLSearchParams(text));
        }
        seen.push({ method: request.method, path: url.pathname, search: url.search, body });
      });
  });

  const register = (method: Method, path: string, body: JsonBodyType, status: number, once: boolean) =>
    server.use(http[method](path, () => HttpResponse.json(body, { status }), { once }));

  return {
    server,
    seen,
    /** The next request to `path` gets this answer (one use). */
    once: (method: Method, path: string, body: JsonBodyType, status = 200) => register(method, path, body, status, true),
    /** Every request to `path` gets this answer until the handlers are reset. */
    always: (method: Method, path: string, body: JsonBodyType, status = 200) => register(method, path, body, status, false),
    reset: () => {
      server.resetHandlers();
      seen.length = 0;
    },
  };
}

export type ModelServer = ReturnType<typeof modelServer>;
