import { textSeal } from '../../server/accounts/sealedText';
import { textOutbox, type TextOutbox } from '../../server/accounts/texts';
import { SmsProviderError, type TextProvider } from '../../server/smsProvider/port';
import type { RootStore } from '../../server/store/store';

/**
 * A provider of texts that keeps what it took, for the domain tests of the outbox's callers (registration, restore):
 * the real outbox in front of it, its failures switched on by the test (`refuse`, `down`).
 */
export interface TextLine {
  /** What the provider took, in order. */
  sent: { phone: string; text: string }[];
  texts: TextOutbox;
  /** Every send refused for good (the provider's 207), or answered as by a provider that is down (HTTP 500); null: taken. */
  failWith(kind: 'refused' | 'down' | null): void;
}

export async function textLine(store: RootStore): Promise<TextLine> {
  const sent: TextLine['sent'] = [];
  let failure: 'refused' | 'down' | null = null;
  const provider: TextProvider = {
    async send(phone, text) {
      if (failure === 'refused') throw new SmsProviderError('sms/send', 'refused', '207 На этот номер нельзя отправлять сообщения', 207);
      if (failure === 'down') throw new SmsProviderError('sms/send', 'http', 'HTTP 500');
      sent.push({ phone, text });
      return { smsId: `000000-${String(sent.length).padStart(8, '0')}` };
    },
    async status() {
      return { statusCode: 103, delivery: 'delivered' };
    },
  };
  const texts = textOutbox({ store, provider, seal: await textSeal(store), retryScheduleMs: [5_000, 15_000], timeoutMs: 1_000, pollMs: 60_000, log: () => {} });
  return { sent, texts, failWith: (kind) => void (failure = kind) };
}
