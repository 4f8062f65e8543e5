import { amountDue, maxSpendablePoints as serverMaxPoints, paymentCommission, usefulPoints } from '../../server/payments/start';
import { objectInfo } from '../../server/payments/billData';
import type { BillRow, PaymentTypeRow, Store } from '../../server/store/store';
import { finalPrice, maxSpendablePoints } from '../../src/services/pricing';
import type { Bill } from '../../src/services/types';

/**
 * One pricing, two places (issue 16): the page computes SPEC §3's maximum points and final price from the bill data
 * the server sends (roubles on the wire), the server from its rows (kopecks) when it starts a payment. For every bill
 * below, every way to pay and every number of points up to the maximum, both must say the same to the kopeck.
 */
interface Case {
  sum: number;
  commissions: number[];
  /** The bill's useful-points limit and the customer's balance (the server's usefulPoints is the smaller). */
  limit: number;
  balance: number;
}

const cases: Record<string, Case> = {
  '0.1 + 0.2: ten kopecks with a twenty-kopeck fee': { sum: 10, commissions: [20, 5], limit: 5, balance: 5 },
  'demo-anon: card 1.5 %, fast payment free, SberPay 0.5 %': { sum: 1_234_567, commissions: [18_519, 0, 6_173], limit: 0, balance: 0 },
  'demo-points: 3 000 of 4 500 points useful': { sum: 800_000, commissions: [12_000, 0, 4_000], limit: 3000, balance: 4500 },
  'demo-cover: points can pay it all': { sum: 150_000, commissions: [2_250, 0, 750], limit: 5000, balance: 5000 },
  'sum and fee in kopecks that make no whole point': { sum: 150_099, commissions: [50, 2_251], limit: 5000, balance: 5000 },
  'a balance below the limit': { sum: 99_999, commissions: [1_500, 1_499], limit: 5000, balance: 120 },
  'percent fees that round': { sum: 333_333, commissions: [Math.round(333_333 * 0.015), Math.round(333_333 * 0.005)], limit: 10_000, balance: 10_000 },
  'no payment types': { sum: 30, commissions: [], limit: 10, balance: 10 },
};

function serverBill({ sum, commissions, limit, balance }: Case) {
  const row: BillRow = {
    oid: 'bill-1',
    product: 'realty',
    object_type: 'bill',
    purpose: 'Оплата',
    sum_kopecks: sum,
    client_name: 'Иванов Иван',
    client_phone: '79990000001',
    client_email: null,
    bill_email: null,
    cust_no: 'C-1',
    no_reg: 1,
    points_enabled: limit > 0 ? 1 : 0,
    useful_points_limit: limit,
    status: 'open',
    paid_order_id: null,
    copied_from: null,
    created_at: 0,
    expires_at: null,
    return_url: null,
    paid_at: null,
    closed_as: null,
    closed_at: null,
  };
  const types: PaymentTypeRow[] = commissions.map((commission_kopecks, position) => ({
    oid: `bill-1.type-${position}`,
    bill_oid: 'bill-1',
    position,
    code: 'ALL',
    name: `Способ ${position}`,
    commission_kopecks,
    show_aggregator_offer: 0,
    show_executer_offer: 0,
  }));
  // The two reads the bill data and the pricing make of the store.
  const store = { pointsBalance: async () => balance, typesOfBill: async () => types } as unknown as Store;
  return { row, types, store };
}

describe.each(Object.entries(cases))('%s', (_name, bill) => {
  const { row, types, store } = serverBill(bill);
  // What the page gets: GET /ajax/object-info/{id} as JSON.
  let wire: Bill;
  beforeAll(async () => {
    wire = JSON.parse(JSON.stringify(await objectInfo(store, row))) as Bill;
  });
  const ways = [undefined, ...types];

  test.each(ways.map((type) => [type?.oid ?? 'no type chosen', type] as const))('maximum points and final price agree: %s', async (_way, type) => {
    const commission = paymentCommission(types, type);
    const selected = wire.cardTypes.find((t) => t.OID === type?.oid) ?? null;
    const max = serverMaxPoints(await usefulPoints(store, row), row.sum_kopecks, commission);
    expect(maxSpendablePoints(wire, selected)).toBe(max);
    for (const points of new Set([0, 1, Math.floor(max / 2), max - 1, max].filter((p) => p >= 0 && p <= max))) {
      expect(finalPrice(wire, selected, points)).toBe(amountDue(row.sum_kopecks, commission, points));
    }
  });

  test('the points screen (no type chosen yet) offers what the server accepts with any type', async () => {
    const offered = maxSpendablePoints(wire);
    const useful = await usefulPoints(store, row);
    for (const type of ways) expect(offered).toBeLessThanOrEqual(serverMaxPoints(useful, row.sum_kopecks, paymentCommission(types, type)));
  });
});
