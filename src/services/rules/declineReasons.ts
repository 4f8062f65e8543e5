/**
 * Why a card payment was declined, in the few reasons a payer can act on, from the acquirer's action code
 * (getOrderStatusExtended's `actionCode`). The server reads the code kept on the attempt through this table and sends
 * the reason; the page words it from its catalogue. A code not listed is a decline with no reason to tell: the page
 * then says only that the bank declined it.
 */
export type DeclineReason = 'insufficient funds' | 'card expired or blocked' | '3-D Secure failed' | 'limit exceeded';

/** The action codes of each reason: the card networks' own (100–299) and the RBS gateway's (negative, six digits). */
const codesOf: Record<DeclineReason, readonly number[]> = {
  'insufficient funds': [116, 216],
  // Expired, restricted, not yet effective, lost or stolen: a card that cannot pay now, whatever its balance.
  'card expired or blocked': [101, 201, 104, 204, 125, 208, 209],
  // The issuer's 3-D Secure check refused or could not be made.
  '3-D Secure failed': [-2006, -2022, -2023, -2024, -2025, 151017],
  // The amount or the number of payments is over what the issuer allows.
  'limit exceeded': [121, 123, -20010],
};

const reasons = new Map<number, DeclineReason>(
  (Object.entries(codesOf) as [DeclineReason, readonly number[]][]).flatMap(([reason, codes]) => codes.map((code) => [code, reason] as const)),
);

/** The reason of a declined order's action code; null when the code says nothing the payer could act on. */
export const declineReasonOf = (actionCode: number | null | undefined): DeclineReason | null =>
  actionCode === null || actionCode === undefined ? null : (reasons.get(actionCode) ?? null);
