/** The merchant API's one error: `{ error: { code, message, fields? } }` with its HTTP status. */
export type ErrorCode =
  | 'invalid_request'
  | 'validation_error'
  | 'unauthorized'
  | 'not_found'
  | 'bill_exists'
  | 'bill_paid'
  | 'bill_cancelled'
  | 'bill_expired'
  | 'balance_too_low'
  | 'payment_not_refundable'
  | 'refund_exceeds_remaining'
  | 'payment_not_held'
  | 'capture_exceeds_held'
  | 'payment_held'
  | 'bill_held'
  | 'acquirer_unavailable'
  | 'already_handed_over'
  | 'nothing_to_close'
  | 'idempotency_key_reused'
  | 'rate_limited'
  | 'internal_error';

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: { field: string; message: string }[],
  ) {
    super(message);
  }
}
