/** The merchant API's one error: `{ error: { code, message, fields? } }` with its HTTP status. */
import type { FastifyError } from 'fastify';
import { BillConflict, BillInputError, BillNotFound } from '../billing/bills';
import { BalanceTooLow } from '../loyalty/ledger';
import { RefundRefused } from '../payments/refunds';
export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'not_found'
  | 'bill_exists'
  | 'bill_paid'
  | 'bill_cancelled'
  | 'bill_expired'
  | 'balance_too_low'
  | 'payment_not_refundable'
  | 'refund_exceeds_remaining'
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
  if (error instanceof BillInputError) return new ApiError(400, 'invalid_request', 'The request has invalid fields', error.fields);
  if (error instanceof BillConflict) return new ApiError(409, error.code, error.message);
  if (error instanceof BillNotFound) return new ApiError(404, 'not_found', 'No bill with this objectOID');
  if (error instanceof BalanceTooLow) return new ApiError(409, 'balance_too_low', error.message);
  if (error instanceof RefundRefused) {
    if (error.kind === 'invalid') return new ApiError(400, 'invalid_request', error.message, error.fields);
    return error.kind === 'not_found' ? new ApiError(404, 'not_found', error.message) : new ApiError(409, error.kind, error.message);
  }
  return undefined;
}

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
    const message = params.additionalProperty ? 'is not a field of this request' : (problem.message ?? 'is invalid');
    return { field, message };
  });
}
