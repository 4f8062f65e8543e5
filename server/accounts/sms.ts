import type { FastifyBaseLogger } from 'fastify';
import type { Store } from '../store/store';

/**
 * Where text messages go: the SMS sender port. `store` is the caller's, usually its transaction: a message is part of
 * what the transaction decides (a code, a password), so it is recorded with it or not at all, and anything leaving the
 * database waits for the commit (a transaction may run more than once). The sandbox's outbox is one
 * (sandbox/smsOutbox.ts); `missingGateway` stands where no real one is configured.
 */
export interface SmsGateway {
  send(store: Store, phone: string, text: string): Promise<void>;
}

/**
 * Without the sandbox there is no real gateway in this reference server: say so in the log once the transaction has
 * committed, without the text (it carries codes and passwords) and with the phone masked.
 */
export const missingGateway = (log: FastifyBaseLogger): SmsGateway => ({
  send: async (store, phone) =>
    store.afterCommit(() => log.warn({ phone: `${phone.slice(0, 4)}*****${phone.slice(-2)}` }, 'no SMS gateway configured: message not sent')),
});
