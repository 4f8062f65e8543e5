/** The merchant API's one error: `{ error: { code, message, fields? } }` with its HTTP status. */
import type { FastifyError } from 'fastify';
import { BillConflict, BillInputError, BillNotFound } from '../billing/bills';
import { BalanceTooLow } from '../loyalty/ledger';
import { HoldRefused } from '../payments/holds';
import { RefundRefused } from '../payments/refunds';
import { TEXT_LINE, TEXT_LINE_PROBLEM, TEXT_LINES, TEXT_LINES_PROBLEM } from '../platform/patterns';

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

/** A refusal of the domain as the API's error. */
export function domainError(error: unknown): ApiError | undefined {
  if (error instanceof BillInputError) return new ApiError(400, badInputCode(error.fields), 'The request has invalid fields', error.fields);
  if (error instanceof BillConflict) return new ApiError(409, error.code, error.message);
  if (error instanceof BillNotFound) return new ApiError(404, 'not_found', 'No bill with this objectOID');
  if (error instanceof BalanceTooLow) return new ApiError(409, 'balance_too_low', error.message);
  if (error instanceof HoldRefused) {
    if (error.kind === 'invalid') return new ApiError(400, 'invalid_request', 'The request has invalid fields', [{ field: 'amount.value', message: error.message }]);
    return error.kind === 'not_found' ? new ApiError(404, 'not_found', error.message) : new ApiError(409, error.kind, error.message);
  }
  if (error instanceof RefundRefused) {
    if (error.kind === 'invalid') return new ApiError(400, badInputCode(error.fields ?? []), error.message, error.fields);
    return error.kind === 'not_found' ? new ApiError(404, 'not_found', error.message) : new ApiError(409, error.kind, error.message);
  }
  return undefined;
}

/** What is wrong with a field, in words: the free-text formats' own, else Ajv's. */
const textFormatMessages: Record<string, string> = { [TEXT_LINE]: TEXT_LINE_PROBLEM, [TEXT_LINES]: TEXT_LINES_PROBLEM };
function messageOf(problem: { keyword: string; params: unknown; message?: string }): string {
  const format = problem.keyword === 'format' ? (problem.params as { format?: string }).format : undefined;
  return (format && textFormatMessages[format]) ?? problem.message ?? 'is invalid';
}

/**
 * The code of a refusal of bad input: `validation_error` when a free-text field holds a character no text may hold
 * (a control character, DEL, half a surrogate pair, a line break in a one-line field), whatever else the request got
 * wrong: a merchant's system can tell text it must clean from a request it built wrong. `fields` lists every field at
 * fault either way. Any other bad input is `invalid_request`.
 */
const textProblems = new Set([TEXT_LINE_PROBLEM, TEXT_LINES_PROBLEM]);
export const badInputCode = (fields: readonly { message: string }[]): ErrorCode => (fields.some((field) => textProblems.has(field.message)) ? 'validation_error' : 'invalid_request');

/** Ajv's errors as the fields of the request at fault (`amount.value`, `customer.phone`, `Idempotency-Key`). */
export function validationFields(error: FastifyError): { field: string; message: string }[] {
  const where = error.validationContext;
  return (error.validation ?? []).map((problem) => {
    const params = problem.params as { missingProperty?: string; additionalProperty?: string };
    const path = problem.instancePath
      .split('/')
      .filter(Boolean)
      .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
      .join('')
      .replace(/^\./, '');
    const extra = params.missingProperty ?? params.additionalProperty;
    let field = [path, extra].filter(Boolean).join(path && extra ? '.' : '');
    if (where === 'headers') field = field === 'idempotency-key' ? 'Idempotency-Key' : field;
    if (!field) field = where ?? 'body';
    return { field, message: params.additionalProperty ? 'is not a field of this request' : messageOf(problem) };
  });
}
