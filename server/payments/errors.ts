/** A refusal the payer's request can cause; routes answer it as a 4xx. */
export class PaymentRefused extends Error {
  constructor(
    readonly statusCode: 400 | 403 | 404 | 409 | 422,
    message: string,
  ) {
    super(message);
  }
}
