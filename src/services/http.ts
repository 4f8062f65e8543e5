import ky, { HTTPError, type KyInstance } from 'ky';
import { ApiError } from './apiError';

export { ApiError } from './apiError';

export interface HttpOptions {
  /** Read on every request, so a token refreshed in the page's meta tag is picked up. */
  csrfToken: () => string;
  fetch?: typeof fetch;
}

/**
 * The one preconfigured HTTP client: cookies, the XMLHttpRequest header and the CSRF header on every
 * request, no time-out and no automatic retry (a payment call must never be repeated behind the payer's back).
 */
export function createHttp({ csrfToken, fetch: fetchImpl }: HttpOptions): KyInstance {
  return ky.create({
    credentials: 'include',
    timeout: false,
    retry: 0,
    throwHttpErrors: true,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    hooks: {
      beforeRequest: [
        (request) => {
          request.headers.set('X-Requested-With', 'XMLHttpRequest');
          request.headers.set('X-CSRF-TOKEN', csrfToken());
        },
      ],
    },
  });
}

/** Turns ky's errors into ApiError with the server's message, so callers log one shape. */
export async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPError) {
    const body: unknown = await error.response
      .clone()
      .json()
      .catch(() => null);
    const serverMessage = body && typeof body === 'object' && 'error' in body ? String((body as { error: unknown }).error) : '';
    return new ApiError(serverMessage || error.message, error.response.status, body);
  }
  return new ApiError(error instanceof Error ? error.message : String(error), 0);
}
