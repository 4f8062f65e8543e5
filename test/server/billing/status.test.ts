import { billStatus, unpayableReason, type BillState } from '../../../server/billing/status';

/** A bill's status read from its row: paid and closed marks first, then the deadline, which counts even before the sweep. */
const NOW = 1_000_000;
const bill = (state: Partial<BillState>): BillState => ({ state: 'open', status: 'open', closed_as: null, expires_at: null, ...state });

test.each([
  ['open, no deadline', bill({}), 'unpaid', null],
  ['open, deadline ahead', bill({ expires_at: NOW + 1 }), 'unpaid', null],
  ['partly paid', bill({ state: 'partlyPaid' }), 'partially_paid', null],
  ['partly paid, deadline come (not swept yet)', bill({ state: 'partlyPaid', expires_at: NOW }), 'expired', 'Срок оплаты счета истек'],
  ['open, deadline come (not swept yet)', bill({ expires_at: NOW }), 'expired', 'Срок оплаты счета истек'],
  ['closed as expired', bill({ closed_as: 'expired', expires_at: NOW - 1 }), 'expired', 'Срок оплаты счета истек'],
  ['cancelled, whatever its deadline', bill({ closed_as: 'cancelled', expires_at: NOW - 1 }), 'cancelled', 'Счет отменен'],
  ['paid, whatever else', bill({ status: 'paid', expires_at: NOW - 1 }), 'paid', 'Счет уже оплачен'],
] as const)('%s', (_name, state, status, reason) => {
  expect(billStatus(state, NOW)).toBe(status);
  expect(unpayableReason(state, NOW)).toBe(reason);
});
