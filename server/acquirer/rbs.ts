import { answerText as text, formApi, NoAnswer, requiredText, type FormApiOptions } from '../platform/formPost';
import { AcquirerError, type Acquirer, type CallContext, type Exchange, type OrderStatus } from './port';

export type Credentials = { userName: string; password: string } | { token: string };

/** `baseUrl`: the REST base, ending in `/payment/rest/`. */
export interface RbsOptions extends FormApiOptions {
  credentials: Credentials;
  /** Told of every exchange, for the exchanges log. */
  onExchange?: (exchange: Exchange) => void | Promise<void>;
}

type Answer = Record<string, unknown>;

const numberOrNull = (value: unknown): number | null => (value === undefined || value === null || value === '' ? null : Number(value));

/**
 * The RBS REST adapter: form-encoded POSTs with the shop's credentials, JSON answers, `errorCode` ≠ 0 as a failure, a
 * time-out on every call. It never retries: a retried register.do or refund.do could do the thing twice.
 */
export function rbsAcquirer(options: RbsOptions): Acquirer {
  const post = formApi(options);

  async function call(method: string, params: Record<string, string | number | undefined | null>, context: CallContext = {}): Promise<Answer> {
    const request: Record<string, string> = {};
    for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null) request[name] = String(value);
    const body = new URLSearchParams({ ...request, ...options.credentials });
    const started = Date.now();
    let httpStatus: number | null = null;
    let answer: unknown = null;
    try {
      let raw: string;
      try {
        ({ status: httpStatus, raw } = await post(method, body));
      } catch (error) {
        if (error instanceof NoAnswer) throw new AcquirerError(method, error.kind, error.message);
        throw error;
      }
      if (httpStatus !== 200) throw new AcquirerError(method, 'http', `HTTP ${httpStatus}`, null, httpStatus);
      try {
        answer = JSON.parse(raw);
      } catch {
        throw new AcquirerError(method, 'not-json', 'the answer is not JSON', null, httpStatus);
      }
      if (!answer || typeof answer !== 'object') throw new AcquirerError(method, 'not-json', 'the answer is not a JSON object', null, httpStatus);
      const errorCode = text((answer as Answer).errorCode);
      if (errorCode !== '' && errorCode !== '0') {
        throw new AcquirerError(method, 'remote', text((answer as Answer).errorMessage) || `errorCode ${errorCode}`, errorCode, httpStatus);
      }
      await report(null);
      return answer as Answer;
    } catch (error) {
      await report(error);
      throw error;
    }

    async function report(failure: unknown) {
      if (!options.onExchange) return;
      const error = failure === null ? null : failure instanceof Error ? failure.message : String(failure);
      const outcome = failure === null ? 'ok' : failure instanceof AcquirerError ? failure.kind : 'network';
      const exchange = { attempt: context.attempt ?? null, method, outcome, request, answer, error, httpStatus, ms: Date.now() - started } as const;
      // The exchanges log must never break a payment: a failure to record is the recorder's to log.
      await Promise.resolve(options.onExchange(exchange)).catch(() => undefined);
    }
  }

  const required = (method: string, answer: Answer, name: string) => requiredText(answer, name, (message) => new AcquirerError(method, 'remote', message));

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
      const amounts = (answer.paymentAmountInfo ?? {}) as Answer;
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
        refundedAmount: numberOrNull(amounts.refundedAmount) ?? 0,
        paymentState: amounts.paymentState === undefined ? null : text(amounts.paymentState),
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
      const refundItems = request.refundItems ? JSON.stringify({ items: request.refundItems }) : undefined;
      await call('refund.do', { orderId: request.orderId, amount: request.amount, refundItems }, context);
    },

    async reverse(request, context) {
      await call('reverse.do', { orderId: request.orderId }, context);
    },
  };
}
