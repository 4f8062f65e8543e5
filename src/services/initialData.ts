import { ApiError } from './apiError';
import type { Bill, LoyaltyUser, PaymentStatusResponse } from './types';

/** An answer the server put into the page instead of sending it to a request: the status and body the request would get. */
export interface EmbeddedAnswer {
  status: number;
  body: unknown;
}

/**
 * What the server knew when it answered the page, in its `initial-data` meta tag (a JSON attribute: no script runs it,
 * so the strict CSP stays): the answers of the page's first requests, so that the first load asks for none of them
 * again, and what it rendered into the mount point.
 */
export interface InitialData {
  /** The bill data's answer (object-info, with the link's retry): the bill, or its refusal (404 unknown, 409 closed). */
  bill?: EmbeddedAnswer;
  /** The signed-in loyalty user, null for a guest; absent when the provider's calls go to a host only the page can ask. */
  user?: LoyaltyUser | null;
  /** A result page's first status poll. */
  status?: EmbeddedAnswer;
  /** The view the server rendered into the mount point (`shownView`); null: nothing, the page renders on its own. */
  rendered: string | null;
}

export function readInitialData(doc: Document = document): InitialData {
  const raw = doc.querySelector<HTMLMetaElement>('meta[name="initial-data"]')?.content;
  try {
    const parsed = raw ? (JSON.parse(raw) as Partial<InitialData> | null) : null;
    return parsed && typeof parsed === 'object' ? { ...parsed, rendered: typeof parsed.rendered === 'string' ? parsed.rendered : null } : { rendered: null };
  } catch {
    // A page whose data cannot be read asks the server, as a page without any does.
    return { rendered: null };
  }
}

/** An embedded answer as its request would have ended: its body for a success, else the ApiError the request throws. */
export function answerOf<T>(answer: EmbeddedAnswer): Promise<T> {
  if (answer.status >= 200 && answer.status < 300) return Promise.resolve(answer.body as T);
  const body = answer.body as { error?: unknown } | null;
  return Promise.reject(new ApiError(typeof body?.error === 'string' ? body.error : `HTTP ${answer.status}`, answer.status, answer.body));
}

/** A value given once: the first call takes it, every later one gets undefined. */
function takenOnce<Value>(value: Value | undefined): () => Value | undefined {
  let left = value;
  return () => {
    const taken = left;
    left = undefined;
    return taken;
  };
}

/**
 * The page's first answers, each given once: the first load of the bill (or the user, or the status) gets what the
 * server embedded, any later one (a refresh after signing in, the next poll) asks the server. null: nothing embedded,
 * ask the server.
 */
export function firstAnswers(data: InitialData) {
  const bill = takenOnce(data.bill);
  const user = takenOnce('user' in data ? { user: data.user ?? null } : undefined);
  const status = takenOnce(data.status);
  return {
    bill(): Promise<Bill> | null {
      const answer = bill();
      return answer ? answerOf<Bill>(answer) : null;
    },
    user(): Promise<LoyaltyUser | null> | null {
      const known = user();
      return known ? Promise.resolve(known.user) : null;
    },
    status(): Promise<PaymentStatusResponse> | null {
      const answer = status();
      return answer ? answerOf<PaymentStatusResponse>(answer) : null;
    },
  };
}

export type FirstAnswers = ReturnType<typeof firstAnswers>;
