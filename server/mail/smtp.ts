/**
 * The SMTP adapter: letters through nodemailer to the server SMTP_URL names (`smtp://user:pass@host:587`, or
 * `smtps://…:465`), from MAIL_FROM. The URL may be known only once the sandbox's own server listens, so it is asked for
 * at each letter; one transport per URL, kept.
 */
import type { Transporter } from 'nodemailer';
import { MailError, type Letter, type MailSender } from './port';

export interface SmtpOptions {
  /** Where to send; null: nowhere (no SMTP_URL and no sandbox). */
  url: () => Promise<string | null>;
  from: string;
  /** Every step of a send gives up after this long. */
  timeoutMs: number;
  configured: boolean;
}

export function smtpSender(options: SmtpOptions): MailSender {
  const transports = new Map<string, Transporter>();
  const transportFor = async (url: string) => {
    let transport = transports.get(url);
    if (!transport) {
      // Loaded with the first letter: a server that sends none never loads it.
      const { default: nodemailer } = await import('nodemailer');
      // Another letter may have made it while this one waited for the module.
      transport = transports.get(url) ?? nodemailer.createTransport({ url, connectionTimeout: options.timeoutMs, greetingTimeout: options.timeoutMs, socketTimeout: options.timeoutMs });
      transports.set(url, transport);
    }
    return transport;
  };
  return {
    configured: options.configured,
    async send(letter: Letter) {
      const url = await options.url();
      if (!url) throw new MailError('e-mail is not configured (SMTP_URL)');
      try {
        const sent = (await (await transportFor(url)).sendMail({
          from: options.from,
          to: letter.to,
          subject: letter.subject,
          text: letter.text,
          html: letter.html,
          attachments: (letter.inline ?? []).map((picture) => ({ cid: picture.cid, contentType: picture.type, content: picture.content, filename: picture.cid })),
        })) as { messageId: string };
        return { messageId: sent.messageId };
      } catch (error) {
        throw new MailError(error instanceof Error ? error.message : String(error));
      }
    },
    async close() {
      for (const transport of transports.values()) transport.close();
      transports.clear();
    },
  };
}
