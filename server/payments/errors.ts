import type { ClosedAs } from '../../src/services/rules/billData';

/** A refusal the payer's request can cause; routes answer it as a 4xx. */
export class PaymentRefused extends Error {
  constructor(
    readonly statusCode: 400 | 403 | 404 | 409 | 422,
    message: string,
    /** A bill that takes no payment any more: why, for the page to say it in its words. */
    readonly closedAs: ClosedAs | null = null,
  ) {
    super(message);
  }
}
