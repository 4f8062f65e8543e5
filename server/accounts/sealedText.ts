/**
 * Why a pending text is kept sealed rather than its secret made at send time: a text the provider did not answer in
 * time may have gone out all the same, so its retry must carry the very same code or password (two texts with two
 * different codes would leave the payer with one that does not work). The words must therefore be readable until the
 * provider takes them, but never in plain text: AES-256-GCM with a key generated once and kept among the server's
 * settings (so every process and restart can read what another sealed), never in the outbox's rows nor in a log line.
 * The outbox erases the sealed words as soon as a text leaves its pending state, so a dump of the table shows no code
 * or password that is not still on its way, and none at all once every text is settled.
 */
import crypto from 'node:crypto';
import { settingOnce } from '../platform/settings';
import type { Store } from '../store/store';

export interface TextSeal {
  seal(text: string): string;
  open(sealed: string): string;
}

/** The seal of the outbox's texts: its key is generated once and kept in the server's settings. */
export async function textSeal(store: Store): Promise<TextSeal> {
  const key = Buffer.from(await settingOnce(store, 'sms_text_key', crypto.randomBytes(32).toString('hex')), 'hex');
  return {
    seal(text) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64')).join('.');
    },
    open(sealed) {
      const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64'));
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv!);
      decipher.setAuthTag(tag!);
      return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8');
    },
  };
}
