/**
 * Each chart bound to its table: a payment attempt's rows in payment_attempts, a refund's in refunds, a bill's in bills,
 * and the columns each state is written with besides `state` (the words the merchant API and the page read it by, and
 * the moments it marks). Only the writer (writer.ts) writes them.
 */
import { attemptChart, attemptEffects, paymentStatusOf, storedStatusOf, type AttemptEffect, type AttemptEvent, type AttemptState } from './attempt';
import { billChart, billColumnsOf, billEffects, type BillEffect, type BillEvent, type BillState } from './bill';
import { refundChart, refundEffects, refundStatusOf, type RefundEffect, type RefundEvent, type RefundState } from './refund';
import type { Lifecycle } from './writer';

export const attemptLifecycle: Lifecycle<'payment_attempts', AttemptState, AttemptEvent, AttemptEffect> = {
  chart: attemptChart,
  table: 'payment_attempts',
  key: 'order_id',
  effects: attemptEffects,
  // The payment's updatedAt follows its status as the API shows it; a move the API does not see leaves it.
  stored: ({ from, to, now }) => {
    const status = storedStatusOf(to);
    return from !== null && paymentStatusOf(from) === paymentStatusOf(to) ? { status } : { status, updated_at: now };
  },
};

export const refundLifecycle: Lifecycle<'refunds', RefundState, RefundEvent, RefundEffect> = {
  chart: refundChart,
  table: 'refunds',
  key: 'id',
  effects: refundEffects,
  stored: ({ from, to, now }) => {
    const status = refundStatusOf(to);
    return from !== null && (status === 'succeeded' || status === 'failed') ? { status, finished_at: now } : { status };
  },
};

export const billLifecycle: Lifecycle<'bills', BillState, BillEvent, BillEffect> = {
  chart: billChart,
  table: 'bills',
  key: 'oid',
  effects: billEffects,
  stored: ({ from, to, event, now }) => {
    const columns = billColumnsOf(to);
    if (from === null) return columns;
    if (event?.type === 'payment.succeeded') return { ...columns, paid_order_id: event.orderId, paid_at: now };
    if (event?.type === 'goods.handedOver') return { ...columns, handed_over_at: event.at };
    return columns.closed_as ? { ...columns, closed_at: now } : columns;
  },
};

/** The three charts, for the diagrams, the inspector and the model tests. */
export const lifecycleCharts = [attemptChart, refundChart, billChart] as const;
