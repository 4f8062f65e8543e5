/**
 * The SMS provider's ports: what the checkout needs from a provider of texts (send one, read its delivery) and of call
 * checks (start one for a phone, read it). One adapter speaks SMS.ru's HTTP API (smsru.ts); the sandbox serves a fake
 * of the same API, so tests drive that adapter.
 */

/** A text the provider took: its id there, to read the delivery by. */
export interface SentText {
  smsId: string;
}

/** Where a text is, as the provider's status code says. */
export type Delivery = 'on the way' | 'delivered' | 'not delivered';

export interface TextStatus {
  /** The provider's status code of the text (100–102 on the way, 103 delivered, 104–108 and 150 not delivered). */
  statusCode: number;
  delivery: Delivery;
}

/** The text port: send one text to one phone (digits only, 7XXXXXXXXXX), read what became of it. */
export interface TextProvider {
  send(phone: string, text: string): Promise<SentText>;
  status(smsId: string): Promise<TextStatus>;
}

/** A call check the provider started: the number the payer calls from the phone being confirmed. */
export interface StartedCheck {
  checkId: string;
  /** Digits only, for a `tel:` link. */
  callPhone: string;
  /** As the payer reads it: '+7 (800) 500-82-75'. */
  callPhonePretty: string;
}

/** The check's state by the provider's word: 400 waiting for the call, 401 confirmed, 402 expired or failed. */
export const CHECK_STATUS = { waiting: 400, confirmed: 401, ended: 402 } as const;
export type CheckState = 'waiting' | 'confirmed' | 'ended';

/** The call-check port: start a check for a phone, read it. */
export interface CallCheckProvider {
  start(phone: string): Promise<StartedCheck>;
  read(checkId: string): Promise<CheckState>;
}

/** What became of a call to the provider: it did not answer in time, answered no HTTP 200, no JSON, or refused. */
export type ProviderErrorKind = 'timeout' | 'network' | 'http' | 'not-json' | 'refused';

/**
 * Every failure of a provider call: what kind, the provider's status code and text when it answered one, and the
 * method. `down` says whether trying again later may help (the provider did not answer, or said it is busy or broken)
 * or not (it refused this phone, this text or this account: the same request would be refused again).
 */
export class SmsProviderError extends Error {
  constructor(
    readonly method: string,
    readonly kind: ProviderErrorKind,
    message: string,
    readonly statusCode: number | null = null,
    readonly down: boolean = kind !== 'refused',
  ) {
    super(`${method}: ${message}`);
    this.name = 'SmsProviderError';
  }
}
