/**
 * A form-encoded POST to another party's API, given up after a time-out: the transport the outside parties' adapters
 * share (the acquirer's RBS, the SMS provider), and the reading of their answers' fields. What an answer means is each
 * adapter's; here only whether one came, and a field as text.
 */

/** No answer: the time-out ran out, or the network failed. */
export class NoAnswer extends Error {
  constructor(
    readonly kind: 'timeout' | 'network',
    message: string,
  ) {
    super(message);
    this.name = 'NoAnswer';
  }
}

/** Posts the form and answers the HTTP status and the body as text; throws NoAnswer when none came in time. */
export async function postForm(doFetch: typeof fetch, url: string, form: URLSearchParams, timeoutMs: number): Promise<{ status: number; raw: string }> {
  let response: Response;
  try {
    response = await doFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new NoAnswer('timeout', `no answer in ${timeoutMs} ms`);
    throw new NoAnswer('network', (error as Error).message);
  }
  return { status: response.status, raw: await response.text().catch(() => '') };
}

/** Where and how an adapter reaches its party's API. */
export interface FormApiOptions {
  /** The API's base, ending in `/`; a function when it is known only after listen (the sandbox's own fakes). */
  baseUrl: string | (() => string);
  fetch?: typeof fetch;
  /** Every call gives up after this long (the parties' protocols leave it to the client; 10 s unless given). */
  timeoutMs?: number;
}

/** The POST of an adapter's calls: `method` is the call's path below the API's base. */
export function formApi(options: FormApiOptions): (method: string, form: URLSearchParams) => Promise<{ status: number; raw: string }> {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const base = () => (typeof options.baseUrl === 'function' ? options.baseUrl() : options.baseUrl);
  return (method, form) => postForm(doFetch, new URL(method, base()).toString(), form, timeoutMs);
}

/** A field of an answer as text: '' when it is absent or null. */
export const answerText = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

/** A field the answer must carry, as text; without it the answer is the party's failure, in the adapter's own error. */
export function requiredText(answer: Record<string, unknown>, name: string, failure: (message: string) => Error): string {
  const value = answerText(answer[name]);
  if (!value) throw failure(`the answer has no ${name}`);
  return value;
}
