/**
 * E-mail, an outside party: what the desk needs from it is one thing, to send a letter. One adapter speaks SMTP
 * (smtp.ts, through nodemailer) to SMTP_URL; the sandbox runs an SMTP server of its own with an inbox, so tests drive
 * that adapter too.
 */

export interface Letter {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Pictures the HTML shows by `cid:` (the merchant's logo). */
  inline?: { cid: string; type: string; content: Buffer }[];
}

export interface MailSender {
  /** Whether letters can go anywhere at all (SMTP_URL set, or the sandbox's server). */
  readonly configured: boolean;
  /** Sends a letter; answers its Message-ID. Throws MailError when the server did not take it. */
  send(letter: Letter): Promise<{ messageId: string }>;
  close(): Promise<void>;
}

/** The mail server did not take a letter: unreachable, refused, or no answer in time. */
export class MailError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailError';
  }
}
