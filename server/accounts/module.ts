/**
 * The accounts module: the CSRF check of the page's POSTs, the sweep of ended sessions, and the account and code
 * routes (registration, restore, sign-in, the free call, the SMS codes).
 */
import type { FastifyInstance } from 'fastify';
import type { AppOptions } from '../config';
import { every } from '../platform/jobs';
import { createCaptchaVerifier } from './captcha';
import { codeRoutes } from './codeRoutes';
import { csrfCheck } from './csrf';
import { providerRoutes } from './providerRoutes';
import { accountRoutes } from './routes';
import { SESSION_LIFE, sweepEndedSessions } from './sessions';
import type { SmsGateway } from './sms';

export async function accountsModule(app: FastifyInstance, options: AppOptions, { sms }: { sms: SmsGateway }): Promise<void> {
  const store = app.store;
  csrfCheck(app, store);
  // Ended sessions are refused on use already; this deletes the rows of those nobody comes back to (every process
  // sweeps; a second sweep of the same rows deletes nothing).
  every(app, SESSION_LIFE.sweepEveryMs, () => void sweepEndedSessions(store).catch((error: unknown) => app.log.error({ err: error }, 'session sweep failed')));

  const verifyCaptcha = createCaptchaVerifier(options);
  await app.register(codeRoutes, { sms, verifyCaptcha });
  await app.register(accountRoutes, { options, sms, verifyCaptcha, passwordCost: options.passwordCost });
  await app.register(providerRoutes, { options, verifyCaptcha });
}
