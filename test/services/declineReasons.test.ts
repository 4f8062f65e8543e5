import { declineReasonOf } from '../../src/services/rules/declineReasons';
import { stepMessages } from '../../src/services/stepMessages';

test.each([
  [116, 'insufficient funds'],
  [101, 'card expired or blocked'],
  [208, 'card expired or blocked'],
  [-2025, '3-D Secure failed'],
  [151017, '3-D Secure failed'],
  [121, 'limit exceeded'],
  [-20010, 'limit exceeded'],
] as const)("the acquirer's action code %i is the payer's '%s'", (code, reason) => {
  expect(declineReasonOf(code)).toBe(reason);
  // Each reason has its words and what to do, in the catalogue.
  expect(stepMessages.decline.reasons[reason]).toMatch(/\S/);
  expect(stepMessages.decline.advice[reason]).toMatch(/\S/);
});

test('a code that says nothing the payer could act on, or none, is no reason', () => {
  for (const code of [0, 100, -2007, 999_999, null, undefined]) expect(declineReasonOf(code)).toBeNull();
});
