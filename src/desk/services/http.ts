import ky, { HTTPError, type KyInstance } from 'ky';
import type { FieldProblem } from './types';

/**
 * A refused or failed call: the HTTP status (0: no answer), the desk API's code and message, the fields at fault. The
 * page words a refusal by its code (messages.ts), never by comparing messages.
 */
export class DeskApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly fields: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'DeskApiError';
  }
}

/** The session's CSRF token: what the page's meta tag gave, then what every session answer gives. */
export interface CsrfToken {
  get(): string;
  set(token: string): void;
}

export const csrfHolder = (initial: string): CsrfToken => {
  let token = initial;
  return { get: () => token, set: (next) => void (token = next) };
};

export interface DeskHttpOptions {
  csrf: CsrfToken;
  /** Told when the server says the session is gone (signed out elsewhere, idle too long): the desk signs out. */
  onSessionEnded: (code: 'signed_out' | 'session_expired') => void;
  fetch?: typeof fetch;
}

/** ky's errors as DeskApiError, with the server's code and fields. */
export async function toDeskError(error: unknown): Promise<DeskApiError> {
  if (error instanceof DeskApiError) return error;
  if (error instanceof HTTPError) {
    const body = (await error.response
      .clone()
      .json()
      .catch(() => null)) as { error?: { code?: string; message?: string; fields?: FieldProblem[] } } | null;
    return new DeskApiError(body?.error?.message ?? error.message, error.response.status, body?.error?.code ?? 'internal_error', body?.error?.fields ?? []);
  }
  return new DeskApiError(error instanceof Error ? error.message : String(error), 0, 'network');
}

/** The desk's one HTTP client: same-origin cookies, the CSRF header on every call, no time-out, no retry. */
export function createDeskHttp({ csrf, onSessionEnded, fetch: fetchImpl }: DeskHttpOptions): KyInstance {
  return ky.create({
    prefixUrl: '/desk/api',
    credentials: 'same-origin',
    timeout: false,
    retry: 0,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    hooks: {
      beforeRequest: [(request) => void request.headers.set('X-CSRF-Token', csrf.get())],
      beforeError: [
        async (error) => {
          const failed = await toDeskError(error);
          if (failed.status === 401 && (failed.code === 'signed_out' || failed.code === 'session_expired')) onSessionEnded(failed.code);
          return error;
        },
      ],
    },
  });
}

/** A refusal as the machines keep it: plain data (a view words it with problems.ts). */
export interface DeskProblem {
  status: number;
  code: string;
  message: string;
  fields: FieldProblem[];
}

/** Whatever an effect failed with, as a problem. */
export function problemOf(error: unknown): DeskProblem {
  if (error instanceof DeskApiError) return { status: error.status, code: error.code, message: error.message, fields: error.fields };
  return { status: 0, code: 'network', message: error instanceof Error ? error.message : String(error), fields: [] };
}
