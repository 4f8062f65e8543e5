import type { FastifyBaseLogger } from 'fastify';
import type { Store } from './store/store';

/** Where text messages go. The sandbox keeps them in an outbox that `GET /sandbox/sms` shows. */
export interface SmsGateway {
  send(phone: string, text: string): void;
}

/** The sandbox's SMS line: an outbox table (DESIGN §7), written in the caller's transaction. */
export const outboxGateway = (store: Store): SmsGateway => ({ send: (phone, text) => void store.insertOutbox(phone, text) });

/**
 * Without the sandbox there is no real gateway in this reference server: say so in the log, without the text
 * (it carries codes and passwords) and with the phone masked.
 */
export const missingGateway = (log: FastifyBaseLogger): SmsGateway => ({
  send: (phone) => log.warn({ phone: `${phone.slice(0, 4)}*****${phone.slice(-2)}` }, 'no SMS gateway configured: message not sent'),
});
