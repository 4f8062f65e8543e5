/**
 * The RBS REST acquirer: its protocol client (`rbsClient`: one function per remote call, RBS's own words) and the
 * adapter to the acquirer port (`rbsAcquirer`: RBS's order statuses, error codes, currency and bank-app parameters
 * turned into the checkout's words). Nothing outside this file (and the sandbox's fake of it) knows them.
 */
import { answerText as text, formApi, NoAnswer, requiredText, type FormApiOptions } from '../platform/formPost';
import type { FiscalReceipt, OrderBundle } from './orderBundle';
import { AcquirerError, type Acquirer, type CallContext, type Exchange, type Order, type OrderState, type RefundRequest, type SbpQr, type SbpQrStatus } from './port';

/** RBS orderStatus values, as the acquirer's protocol numbers them. */
export const ORDER_STATUS = { registered: 0, held: 1, deposited: 2, reversed: 3, refunded: 4, authStarted: 5, declined: 6 } as const;

/** RBS errorCode answers the adapter reads: the orderNumber is registered already; no such order. */
const ALREADY_REGISTERED = '1';
const NO_SUCH_ORDER = '6';

/** Russian roubles, as ISO 4217 numbers them: the only currency the checkout takes. */
const ROUBLES = 643;

export type Credentials = { userName: string; password: string } | { token: string };

/** `baseUrl`: the REST base, ending in `/payment/rest/`. */
export interface RbsOptions extends FormApiOptions {
  credentials: Credentials;
  /** Told of every exchange, for the exchanges log. */
  onExchange?: (exchange: Exchange) => void | Promise<void>;
}

export interface RegisterRequest {
  /** Ours, ≤ 32 chars, unique per shop: the idempotency key at the acquirer. */
  orderNumber: string;
  amount: number;
  currency?: number;
  returnUrl: string;
  failUrl?: string;
  description?: string;
  email?: string | null;
  sessionTimeoutSecs?: number;
  dynamicCallbackUrl?: string;
  jsonParams?: Record<string, string>;
  /** The fiscal receipt the acquirer's cash-register service issues for the order (none: the merchant issues its own). */
  receipt?: FiscalReceipt;
}

export interface Registered {
  orderId: string;
  formUrl: string;
}

export interface OrderStatus {
  /** The acquirer's order id (RBS answers it among `attributes` as `mdOrder`); null when the answer does not say. */
  orderId: string | null;
  orderNumber: string;
  orderStatus: number;
  /** Why the order ended as it did: 0 paid; for a declined card, the reason (src/services/rules/declineReasons.ts). */
  actionCode: number | null;
  actionCodeDescription: string;
  /** The card paid or declined with, as the acquirer masks it (`cardAuthInfo.maskedPan`, '411111**1111'); null: none. */
  maskedPan: string | null;
  amount: number;
  currency: string | null;
  date: number | null;
  /** What the order has given back so far (`paymentAmountInfo.refundedAmount`), kopecks; 0 when the answer does not say. */
  refundedAmount: number;
  /** What was taken (`paymentAmountInfo.depositedAmount`: at a capture, what deposit.do took), kopecks; null: not said. */
  depositedAmount: number | null;
  /**
   * Where the money stands (`paymentAmountInfo.paymentState`): `APPROVED` is held, not yet settled (a whole refund is
   * then a reverse.do); `DEPOSITED`, `REFUNDED`, `REVERSED`, …; null when the answer does not say.
   */
  paymentState: string | null;
}

/** RBS's calls, one function each, in RBS's words. */
export interface RbsClient {
  register(request: RegisterRequest, context?: CallContext): Promise<Registered>;
  /** register.do's two-stage twin: paying holds the money (orderStatus 1) until deposit.do or reverse.do. */
  registerPreAuth(request: RegisterRequest, context?: CallContext): Promise<Registered>;
  /** Takes held money: `amount` at most what is held (0: all of it), with the positions taken when less than the whole. */
  deposit(request: { orderId: string; amount: number; orderBundle?: OrderBundle }, context?: CallContext): Promise<void>;
  orderStatus(by: { orderId: string } | { orderNumber: string }, context?: CallContext): Promise<OrderStatus>;
  sbpQr(request: { orderId: string; size?: number }, context?: CallContext): Promise<SbpQr>;
  sbpQrStatus(request: { orderId: string; qrId: string }, context?: CallContext): Promise<SbpQrStatus>;
  refund(request: RefundRequest, context?: CallContext): Promise<void>;
  /** Lets go of an order not yet settled: all of it, or `amount` of a hold. */
  reverse(request: { orderId: string; amount?: number }, context?: CallContext): Promise<void>;
  decline(request: { orderId: string }, context?: CallContext): Promise<void>;
}

type Answer = Record<string, unknown>;

const numberOrNull = (value: unknown): number | null => (value === undefined || value === null || value === '' ? null : Number(value));

/** One call of an RBS API: the method, its parameters (absent ones left out) and which attempt it is about. */
export type RbsCall = (method: string, params: Record<string, string | number | undefined | null>, context?: CallContext) => Promise<Answer>;

/**
 * The calls of an RBS API (the REST one, and the fiscal one beside it): form-encoded POSTs with the shop's credentials,
 * JSON answers, `errorCode` ≠ 0 as a failure, a time-out on every call, each exchange reported. It never retries: a
 * retried register.do, refund.do or doReceipt could do the thing twice.
 */
export function rbsCaller(options: RbsOptions): { call: RbsCall; required: (method: string, answer: Answer, name: string) => string } {
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
      const exchange = { attempt: context.attempt ?? null, requestId: context.requestId ?? null, method, outcome, request, answer, error, httpStatus, ms: Date.now() - started } as const;
      // The exchanges log must never break a payment: a failure to record is the recorder's to log.
      await Promise.resolve(options.onExchange(exchange)).catch(() => undefined);
    }
  }

  const required = (method: string, answer: Answer, name: string) => requiredText(answer, name, (message) => new AcquirerError(method, 'remote', message));
  return { call, required };
}

/** The RBS REST client, one function per remote call. */
export function rbsClient(options: RbsOptions): RbsClient {
  const { call, required } = rbsCaller(options);

  async function register(method: 'register.do' | 'registerPreAuth.do', request: RegisterRequest, context?: CallContext): Promise<Registered> {
    const answer = await call(
        method,
        {
          orderNumber: request.orderNumber,
          amount: request.amount,
          currency: request.currency ?? ROUBLES,
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
  }

  return {
    register: (request, context) => register('register.do', request, context),
    registerPreAuth: (request, context) => register('registerPreAuth.do', request, context),

    async deposit(request, context) {
      await call('deposit.do', { orderId: request.orderId, amount: request.amount, orderBundle: request.orderBundle ? JSON.stringify(request.orderBundle) : undefined }, context);
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
        depositedAmount: numberOrNull(amounts.depositedAmount),
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
      await call('reverse.do', { orderId: request.orderId, amount: request.amount }, context);
    },

    async decline(request, context) {
      await call('decline.do', { orderId: request.orderId }, context);
    },
  };
}

/** Where an RBS order stands, in the port's words. */
function stateOf(status: OrderStatus): OrderState {
  switch (status.orderStatus) {
    case ORDER_STATUS.registered:
      return { kind: 'waiting' };
    case ORDER_STATUS.held:
      return { kind: 'held' };
    case ORDER_STATUS.deposited:
      return { kind: 'paid' };
    case ORDER_STATUS.reversed:
      return { kind: 'declined', reason: 'reversed' };
    case ORDER_STATUS.refunded:
      return { kind: 'refunded' };
    case ORDER_STATUS.declined:
      return { kind: 'declined', reason: 'declined' };
    default:
      // 3-D Secure under way, or a status this adapter does not know: money may be moving, wait for the final word.
      return { kind: 'paying' };
  }
}

/** An RBS order as the port tells it. */
const orderOf = (status: OrderStatus): Order => ({
  orderId: status.orderId,
  state: stateOf(status),
  amount: status.amount,
  // Once reversed, all of it went back, whatever refundedAmount says.
  givenBack: status.orderStatus === ORDER_STATUS.reversed ? status.amount : status.refundedAmount,
  // Taken: what deposit.do took (all of it, when the answer does not say).
  taken: status.depositedAmount ?? status.amount,
  // Held, or paid today and not yet settled (paymentState APPROVED): a whole refund is then a reversal.
  settled: !(status.orderStatus === ORDER_STATUS.held || status.paymentState === 'APPROVED'),
  actionCode: status.actionCode,
  maskedPan: status.maskedPan,
});

/** The acquirer port over RBS: the checkout's words in, RBS's out, and back. */
export function rbsAcquirer(client: RbsClient): Acquirer {
  return {
    async register(order, context) {
      try {
        const registered = await (order.hold ? client.registerPreAuth : client.register)(
          {
            orderNumber: order.orderNumber,
            amount: order.amount,
            currency: ROUBLES,
            returnUrl: order.returnUrl,
            failUrl: order.failUrl,
            description: order.description,
            email: order.email,
            sessionTimeoutSecs: order.sessionTimeoutSecs,
            dynamicCallbackUrl: order.callbackUrl,
            // Where SberPay's app sends the payer back.
            ...(order.bankAppReturnUrl ? { jsonParams: { 'sberpay.backurl': order.bankAppReturnUrl } } : {}),
            ...(order.receipt ? { receipt: order.receipt } : {}),
          },
          context,
        );
        return { kind: 'registered', ...registered };
      } catch (error) {
        if (error instanceof AcquirerError && error.is(ALREADY_REGISTERED)) return { kind: 'registered before' };
        throw error;
      }
    },
    order: async (orderId, context) => orderOf(await client.orderStatus({ orderId }, context)),
    async findOrder(orderNumber, context) {
      try {
        return orderOf(await client.orderStatus({ orderNumber }, context));
      } catch (error) {
        if (error instanceof AcquirerError && error.is(NO_SUCH_ORDER)) return null;
        throw error;
      }
    },
    sbpQr: (request, context) => client.sbpQr(request, context),
    sbpQrStatus: (request, context) => client.sbpQrStatus(request, context),
    async refund(request, context) {
      await client.refund(request, context);
      return 'refund.do: errorCode 0';
    },
    async reverse(request, context) {
      await client.reverse(request, context);
      return 'reverse.do: errorCode 0';
    },
    async capture(request, context) {
      await client.deposit({ orderId: request.orderId, amount: request.amount, ...(request.receipt ? { orderBundle: request.receipt.orderBundle } : {}) }, context);
      return 'deposit.do: errorCode 0';
    },
    async decline(request, context) {
      await client.decline(request, context);
    },
  };
}
