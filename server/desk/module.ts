/**
 * The desk module: the merchant's staff page at /desk/ and its API, the staff's sessions and their sweep, the mail
 * sender the desk sends links with (SMTP_URL, or the sandbox's own server), and, with the sandbox on, the demo
 * accounts (none with it off).
 */
import type { FastifyInstance } from 'fastify';
import type { AppOptions } from '../config';
import { smtpSender } from '../mail/smtp';
import type { MailSender } from '../mail/port';
import { every } from '../platform/jobs';
import type { ProfileDefaults } from '../profile/profile';
import type { TextProvider } from '../smsProvider/port';
import { DESK_API_PREFIX, deskApi } from './api';
import { deskPageRoutes } from './pageRoutes';
import { DESK_SESSION_LIFE, sweepEndedDeskSessions } from './sessions';
import { demoAccounts, type DemoAccount } from './staff';
import { named } from '../operations/named';

declare module 'fastify' {
  interface FastifyInstance {
    desk: {
      /** The sandbox's demo accounts with their passwords (none with the sandbox off), for the start banner. */
      demoAccounts: DemoAccount[];
      mail: MailSender;
    };
  }
}

export async function deskModule(app: FastifyInstance, options: AppOptions, parts: { texts: TextProvider; profile: ProfileDefaults }): Promise<void> {
  const store = app.store;
  const sandboxMail = app.sandboxMail;
  const mail = smtpSender({
    url: async () => options.smtpUrl ?? (sandboxMail ? await sandboxMail.url() : null),
    from: options.mailFrom,
    timeoutMs: options.mailTimeoutMs,
    configured: options.smtpUrl !== null || sandboxMail !== null,
  });
  app.addHook('onClose', () => mail.close());
  const accounts = await demoAccounts(store, options.sandbox, options.passwordCost);
  app.decorate('desk', { demoAccounts: accounts, mail });
  every(app, DESK_SESSION_LIFE.sweepEveryMs, () => void sweepEndedDeskSessions(store, options.deskIdleMs).catch((error: unknown) => app.log.error({ err: error }, 'desk session sweep failed')));

  await app.register(named(deskApi), { prefix: DESK_API_PREFIX, options, texts: parts.texts, mail, profile: parts.profile });
  await app.register(named(deskPageRoutes), { options });
}
