import { AcquirerError, type Acquirer, type CallContext, type Exchange, type OrderStatus } from './port';

export type Credentials = { userName: string; password: string } | { token: string };

export interface RbsOptions {
  /** The REST base, ending in `/payment/rest/`; a function when it is known only after listen (the sandbox's own). */
  baseUrl: string | (() => string);
  credentials: Credentials;
  fetch?: typeof fetch;
  /** Every call gives up after this long (the protocol leaves it to the client; 10 s here). */
  timeoutMs?: number;
  /** Told of every exchange, for the exchanges log. */
  onExchange?: (exchange: Exchange) => void | Promise<void>;
}

type Answer = Record<string, unknown>;

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value));
const numberOrNull = (value: unknown): number | null => (value === undefined || value === null || value === '' ? null : Number(value));

/**
 * The RBS REST adapter: form-encoded POSTs with the shop's credentials, JSON answers, `errorCode` ≠ 0 as a failure, a
 * time-out on every call. It never retries: a retried register.do or refund.do could do the thing twice.
 */
export function rbsAcquirer(options: RbsOptions): Acquirer {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const base = () => (typeof options.baseUrl === 'function' ? options.baseUrl() : options.baseUrl);

  async function call(method: string, params: Record<string, string | number | undefined | null>, context: CallContext = {}): Promise<Answer> {
    const request: Record<string, string> = {};
    for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null) request[name] = String(value);
    const body = new URLSearchParams({ ...request, ...options.credentials });
    const started = Date.now();
    let httpStatus: number | null = null;
    let answer: unknown = null;
    try {
      let response: Response;
      try {
        response = await doFetch(new URL(method, base()).toString(), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: body.toString(),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const name = (error as { name?: string }).name;
        if (name === 'TimeoutError' || name === 'AbortError') throw new AcquirerError(method, 'timeout', `no answer in ${timeoutMs} ms`);
        throw new AcquirerError(method, 'network', (error as Error).message);
      }
      httpStatus = response.status;
      const raw = await response.text().catch(() => '');
      if (response.status !== 200) throw new AcquirerError(method, 'http', `HTTP ${response.status}`, null, response.status);
      try {
        answer = JSON.parse(raw);
      } catch {
        throw new AcquirerError(method, 'not-json', 'the answer is not JSON', null, response.status);
      }
      if (!answer || typeof answer !== 'object') throw new AcquirerError(method, 'not-json', 'the answer is not a JSON object', null, response.status);
      const errorCode = text((answer as Answer).errorCode);
      if (errorCode !== '' && errorCode !== '0') {
        throw new AcquirerError(method, 'remote', text((answer as Answer).errorMessage) || `errorCode ${errorCode}`, errorCode, response.status);
      }
      await report(null);
      return answer as Answer;
    } catch (error) {
      await report(error instanceof Error ? error.message : String(error));
      throw error;
    }

    async function report(error: string | null) {
      if (!options.onExchange) return;
      // The exchanges log must never break a payment: a failure to record is the recorder's to log.
      await Promise.resolve(options.onExchange({ attempt: context.attempt ?? null, method, request, answer, error, httpStatus, ms: Date.now() - started })).catch(
        () => undefined,
      );
    }
  }

  const required = (method: string, answer: Answer, name: string): string => {
    const value = text(answer[name]);
    if (!value) throw new AcquirerError(method, 'remote', `the answer has no ${name}`);
    return value;
  };

  return {
    async register(request, context) {
      const method = 'register.do';
      const answer = await call(
        method,
        {
          orderNumber: request.orderNumber,
          amount: request.amount,
          currency: request.currency ?? 643,
          returnUrl: request.returnUrl,
          failUrl: request.failUrl,
          description: request.description,
          email: request.email,
          sessionTimeoutSecs: request.sessionTimeoutSecs,
          dynamicCallbackUrl: request.dynamicCallbackUrl,
          jsonParams: request.jsonParams ? JSON.stringify(request.jsonParams) : undefined,
          taxSystem: request.receipt?.taxSystem,
          orderBundle: request.receipt ? JSON.stringify(request.receipt.orderBundle) : undefined,
        },
        context,
      );
      return { orderId: required(method, answer, 'orderId'), formUrl: text(answer.formUrl) };
    },

    async orderStatus(by, context): Promise<OrderStatus> {
      const method = 'getOrderStatusExtended.do';
      const answer = await call(method, 'orderId' in by ? { orderId: by.orderId } : { orderNumber: by.orderNumber }, context);
      const status = numberOrNull(answer.orderStatus);
      if (status === null || !Number.isInteger(status)) throw new AcquirerError(method, 'remote', 'the answer has no orderStatus');
      const attributes = Array.isArray(answer.attributes) ? (answer.attributes as { name?: unknown; value?: unknown }[]) : [];
      const mdOrder = attributes.find((attribute) => attribute?.name === 'mdOrder')?.value;
      const card = answer.cardAuthInfo && typeof answer.cardAuthInfo === 'object' ? (answer.cardAuthInfo as { maskedPan?: unknown }) : {};
      return {
        orderId: 'orderId' in by ? by.orderId : mdOrder ? text(mdOrder) : null,
        orderNumber: text(answer.orderNumber),
        orderStatus: status,
        actionCode: numberOrNull(answer.actionCode),
        actionCodeDescription: text(answer.actionCodeDescription),
        maskedPan: text(card.maskedPan) || null,
        amount: Number(answer.amount ?? 0),
        currency: answer.currency === undefined ? null : text(answer.currency),
        date: numberOrNull(answer.date),
      };
    },

    async sbpQr(request, context) {
      const method = 'sbp/c2b/qr/dynamic/get.do';
      const size = request.size ?? 256;
      const answer = await call(method, { mdOrder: request.orderId, qrHeight: size, qrWidth: size, qrFormat: 'image' }, context);
      return {
        qrId: required(method, answer, 'qrId'),
        qrStatus: answer.qrStatus === undefined ? null : text(answer.qrStatus),
        payload: required(method, answer, 'payload'),
        renderedQr: text(answer.renderedQr),
      };
    },

    async sbpQrStatus(request, context) {
      const method = 'sbp/c2b/qr/status.do';
      const answer = await call(method, { mdOrder: request.orderId, qrId: request.qrId }, context);
      return { qrStatus: required(method, answer, 'qrStatus'), transactionState: answer.transactionState === undefined ? null : text(answer.transactionState) };
    },

    async refund(request, context) {
      await call('refund.do', { orderId: request.orderId, amount: request.amount }, context);
    },

    async reverse(request, context) {
      await call('reverse.do', { orderId: request.orderId }, context);
    },
  };
}
