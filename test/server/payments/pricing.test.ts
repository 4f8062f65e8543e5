import { pageTypeOid } from '../../../server/billing/payLinks';
import { insertBill, insertType } from '../../../server/billing/queries';
import type { BillRow, PaymentTypeRow } from '../../../server/billing/tables';
import { addLedgerEntry } from '../../../server/loyalty/ledger';
import { migrations } from '../../../server/migrations';
import { objectInfo } from '../../../server/payments/billData';
import { amountDue, maxSpendablePoints as serverMaxPoints, paymentCommission, usefulPoints } from '../../../server/payments/pricing';
import { openStore, type RootStore } from '../../../server/store/store';
import { finalPrice, maxSpendablePoints } from '../../../src/services/pricing';
import type { Bill } from '../../../src/services/types';

/**
 * One pricing, two places: the page computes the maximum points and final price from the bill data
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
    link_id: 'bill-1',
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
    // A bill lists each code once: the page names a type by the bill's link id and its code.
    code: (['ALL', 'SBP', 'SberPaySite'] as const)[position]!,
    name: `Способ ${position}`,
    commission_kopecks,
    show_aggregator_offer: 0,
    show_executer_offer: 0,
  }));
  return { row, types, balance };
}

/** A throw-away store holding just this bill, its types and its customer's balance. */
async function storeWith({ row, types, balance }: ReturnType<typeof serverBill>): Promise<RootStore> {
  const store = await openStore({ databaseUrl: null, databasePath: ':memory:', now: () => 0, migrations });
  const { created_at: _created, paid_order_id: _paid, paid_at: _paidAt, closed_as: _closed, closed_at: _closedAt, ...bill } = row;
  await insertBill(store, bill);
  for (const type of types) await insertType(store, type);
  if (balance > 0) await addLedgerEntry(store, { cust_no: row.cust_no!, delta: balance, reason: 'credit', order_id: null });
  return store;
}

describe.each(Object.entries(cases))('%s', (_name, bill) => {
  const { row, types, balance } = serverBill(bill);
  let store: RootStore;
  // What the page gets: GET /ajax/object-info/{id} as JSON.
  let wire: Bill;
  beforeAll(async () => {
    store = await storeWith({ row, types, balance });
    wire = JSON.parse(JSON.stringify(await objectInfo(store, row))) as Bill;
  });
  afterAll(() => store.close());
  const ways = [undefined, ...types];

  test.each(ways.map((type) => [type?.oid ?? 'no type chosen', type] as const))('maximum points and final price agree: %s', async (_way, type) => {
    const commission = paymentCommission(types, type);
    const selected = (type && wire.cardTypes.find((t) => t.OID === pageTypeOid(row, type.code))) ?? null;
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
