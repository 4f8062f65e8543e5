/**
 * A form-encoded POST to another party's API, given up after a time-out: the transport the outside parties' adapters
 * share (the acquirer's RBS, the SMS provider). What the answer means is each adapter's; here only whether one came.
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
