/**
 * The sandbox acquirer's own state: its faults, its side of an order's life (what the payer decides on its pages, the
 * callbacks it sends) and the answers it holds back. Its RBS endpoints are rbs.ts.
 */
import { callbackChecksum } from '../acquirer/checksum';
import { ORDER_STATUS } from '../acquirer/rbs';
import type { AppOptions } from '../config';
import type { Background } from '../platform/background';
import type { RootStore } from '../store/store';
import { faultSet } from './party';
import { moveRbsOrder, rbsOrder } from './rbsOrders';
import type { RbsOrderRow } from './tables';

/** The header in which a client may name its call, so that the fake's hold of that call's answer can be found (heldCalls). */
export const SANDBOX_CALL_HEADER = 'x-sandbox-call';

/** Misbehaviours the fake can be told to show, per orderNumber or for every order ('*'). */
export const FAULTS = [
  'callback-lost',
  'callback-twice',
  'callbacks-reordered',
  'register-500',
  'register-timeout',
  'register-slow',
  'status-slow',
  // A refund made whose answer comes too late for the client; a refund the bank refuses; an order paid today and not
  // yet settled (its money held: refund.do refused, reverse.do works).
  'refund-answer-lost',
  'refund-refused',
  'not-settled',
  // A capture or release of a hold made whose answer comes too late for the client (its time-out); one the bank
  // refuses (nothing done).
  'deposit-answer-lost',
  'reverse-answer-lost',
  'deposit-refused',
  'reverse-refused',
  // decline.do answering HTTP 500: the open order stays payable, as when the acquirer has a bad day.
  'decline-500',
  // The fiscal API: a receipt the fiscal data operator fails (status 4) asking for it to be sent again unchanged, or
  // asking for the cart to be corrected; a doReceipt made whose answer comes too late for the client.
  'receipt-failed',
  'receipt-cart-refused',
  'receipt-answer-lost',
] as const;
export type Fault = (typeof FAULTS)[number];

type Operation = 'approved' | 'declinedByTimeout' | 'deposited' | 'reversed' | 'refunded';

/** The fake's side of an order's life: what its card form, bank-app page and widget do when the payer decides. */
export interface RbsFake {
  /**
   * The payer paid (or refused) on the fake's card form, bank-app page or widget: the order changes, a callback goes out.
   * A card form names the card: its bank's action code for a refusal, and the card as cardAuthInfo masks it.
   */
  decide(orderId: string, pay: boolean, card?: CardDecision): Promise<RbsOrderRow | undefined>;
  /** The order as the fake now sees it (an unpaid one past its session time-out is declined by time-out). */
  order(by: { orderId?: string; orderNumber?: string; qrId?: string }): Promise<RbsOrderRow | undefined>;
  /** Where the fake sends the payer back after the order ended: return or fail URL with `orderId` appended. */
  backUrl(order: RbsOrderRow): string;
  setFault(fault: Fault, on: boolean, orderNumber?: string): void;
  hasFault(fault: Fault, orderNumber: string): boolean;
  /**
   * Answers of the order being held back right now: by a fault that loses an answer or 'status-slow' (past the client's
   * time-out), or 'register-slow' (half of it, then answered). A test waits on this, not on a sleep.
   */
  heldAnswers: Map<string, number>;
  /**
   * Answers held back past the client's time-out, by the name the client gave its call (the SANDBOX_CALL_HEADER header,
   * sent by the server tests' fetch): the order's number, and the end of the hold. A test whose client has given up on
   * the call ends the hold with it, rather than leave the fake waiting out a time-out nobody waits for.
   */
  heldCalls: Map<string, { orderNumber: string; release(): void }>;
  /** Holds an answer of the order back for as long as `wait` takes, counted in heldAnswers meanwhile. */
  holdBack(orderNumber: string, wait: () => Promise<unknown>): Promise<void>;
  /**
   * Holds the answer of the call `call` (the client's name for it, if it gave one) of the order past the client's
   * time-out, in heldCalls meanwhile when named.
   */
  holdPastTimeout(orderNumber: string, call: string | undefined): Promise<void>;
  /** Sends the order's signed callback (unless a fault loses it). */
  notify(order: RbsOrderRow, operation: Operation, success: boolean): void;
}

/** A card typed on the fake's form: masked as the acquirer answers it, and the action code of its refusal. */
export interface CardDecision {
  maskedPan: string;
  declineCode: number;
}

/** A card hold lives at most this long (the card schemes' rule): then the acquirer ends it by itself. */
export const HOLD_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** A refusal with no card (the payer said no in the bank app or the widget): the bank's plain "declined", no reason. */
const REFUSED_IN_APP = 100;
/** An order the merchant ended (decline.do) before it was paid: no bank refused anything. */
export const DECLINED_BY_MERCHANT = -2;

/** What the fake bank says of the action codes it answers, in actionCodeDescription as a real acquirer does. */
export const actionDescriptions: Record<number, string> = {
  0: '',
  [REFUSED_IN_APP]: 'Отказ банка',
  116: 'Недостаточно средств',
  101: 'Истек срок действия карты',
  [-2025]: 'Эмитент отклонил аутентификацию 3-D Secure',
  121: 'Превышен лимит суммы операций по карте',
  [-2007]: 'Истекло время ожидания оплаты',
  [DECLINED_BY_MERCHANT]: 'Заказ отменен магазином',
};

const appendQuery = (url: string, name: string, value: string) => `${url}${url.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(value)}`;

export function createRbsFake(deps: { store: RootStore; options: AppOptions; callbackKey: () => Promise<string>; background: Background }): RbsFake {
  const { store, options } = deps;
  const { setFault, hasFault: has } = faultSet<Fault>();

  /** Signed callback to the order's dynamicCallbackUrl, over HTTP, after the change, as the acquirer sends it. */
  function notify(order: RbsOrderRow, operation: Operation, success: boolean) {
    if (!order.callback_url || has('callback-lost', order.order_number)) return;
    const url = order.callback_url;
    const send = async (params: Record<string, string>) => {
      const signed = { ...params, checksum: callbackChecksum(params, await deps.callbackKey()) };
      await options.acquirerFetch(`${url}${url.includes('?') ? '&' : '?'}${new URLSearchParams(signed).toString()}`, { method: 'GET' });
    };
    const params = { mdOrder: order.order_id, orderNumber: order.order_number, operation, status: success ? '1' : '0', amount: String(order.amount) };
    deps.background.run(`sandbox callback ${order.order_id}`, async () => {
      await send(params);
      if (has('callback-twice', order.order_number)) await send(params);
      // A stale callback arriving after the real one: the order's status, not the callback, decides.
      if (has('callbacks-reordered', order.order_number)) await send({ ...params, operation: 'approved', status: '1' });
    });
  }

  async function order(by: { orderId?: string; orderNumber?: string; qrId?: string }) {
    const found = await rbsOrder(store, by);
    // Unpaid past its session, or held past a hold's life: the acquirer ends it by itself (declinedByTimeout).
    const endsByTime = found?.order_status === ORDER_STATUS.registered || found?.order_status === ORDER_STATUS.held;
    if (found && endsByTime && options.now() > found.expires_at) {
      const timedOut = await moveRbsOrder(store, found.order_id, [found.order_status], { order_status: ORDER_STATUS.declined, action_code: -2007 });
      if (timedOut) notify(timedOut, 'declinedByTimeout', false);
      return timedOut ?? (await rbsOrder(store, by));
    }
    return found;
  }

  const heldAnswers = new Map<string, number>();
  const heldCalls = new Map<string, { orderNumber: string; release(): void }>();
  async function holdBack(orderNumber: string, wait: () => Promise<unknown>) {
    heldAnswers.set(orderNumber, (heldAnswers.get(orderNumber) ?? 0) + 1);
    await wait().finally(() => {
      const left = heldAnswers.get(orderNumber)! - 1;
      if (left > 0) heldAnswers.set(orderNumber, left);
      else heldAnswers.delete(orderNumber);
    });
  }
  const holdPastTimeout = (orderNumber: string, call: string | undefined) =>
    holdBack(orderNumber, () => {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        // Unref'd: a held answer never keeps a closing process (or a test worker) alive.
        const timer = setTimeout(resolve, options.acquirerTimeoutMs + 500).unref();
        release = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (call === undefined) return held;
      heldCalls.set(call, { orderNumber, release });
      return held.finally(() => heldCalls.delete(call));
    });

  return {
    order,
    async decide(orderId, pay, card) {
      const current = await order({ orderId });
      if (!current) return undefined;
      // An order registered by registerPreAuth.do only holds the money, for at most a hold's life.
      const holds = current.pre_auth === 1;
      const moved = await moveRbsOrder(store, orderId, [ORDER_STATUS.registered, ORDER_STATUS.authStarted], {
        order_status: !pay ? ORDER_STATUS.declined : holds ? ORDER_STATUS.held : ORDER_STATUS.deposited,
        action_code: pay ? 0 : (card?.declineCode ?? REFUSED_IN_APP),
        masked_pan: card?.maskedPan ?? null,
        ...(pay && holds ? { expires_at: options.now() + HOLD_LIFETIME_MS } : {}),
        ...(pay && !holds ? { deposited_amount: current.amount } : {}),
      });
      // Decided meanwhile by another request (a double submit, or another process): answer the order as it is now,
      // never the read from before the move, which would send a paying payer to the fail page.
      if (!moved) return (await rbsOrder(store, { orderId })) ?? current;
      notify(moved, pay && holds ? 'approved' : 'deposited', pay);
      return moved;
    },
    backUrl: (o) =>
      appendQuery(o.order_status === ORDER_STATUS.deposited || o.order_status === ORDER_STATUS.held ? o.return_url : (o.fail_url ?? o.return_url), 'orderId', o.order_id),
    setFault,
    hasFault: has,
    heldAnswers,
    heldCalls,
    holdBack,
    holdPastTimeout,
    notify,
  };
}
