/**
 * The sandbox: every outside party faked on this server, for demos and tests (SANDBOX=0 turns it off). The acquirer
 * (an RBS protocol fake with its card form, the fast-payment bank app and the bank-app pay widget), the SMS provider
 * (an SMS.ru fake, with the phone's side: the texts it delivered and the free call), the mail server with its inbox,
 * the captcha, the merchant's webhook inbox, the demo bills and the start page.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppOptions } from '../config';
import { acquirerSandbox } from './acquirer';
import { homeRoutes } from './home';
import { partiesSandbox } from './parties';
import { rbsFakeRoutes } from './rbs';
import { createRbsFake, type RbsFake } from './rbsFake';
import { sberpaySandbox } from './sberpay';
import { sbpSandbox } from './sbp';
import { smsruFakeRoutes } from './smsru';
import { createSmsRuFake, type SmsRuFake } from './smsruFake';
import { mailSandbox, sandboxMailServer, type SandboxMailServer } from './mail';
import { webhooksSandbox } from './webhooks';
import { named } from '../operations/named';

declare module 'fastify' {
  interface FastifyInstance {
    /** The sandbox's RBS fake (sandbox on only). */
    rbsFake: RbsFake | null;
    /** The sandbox's SMS.ru fake (sandbox on only). */
    smsruFake: SmsRuFake | null;
    /** The sandbox's SMTP server, the product's mail server when no SMTP_URL is set (sandbox on only). */
    sandboxMail: SandboxMailServer | null;
  }
}

export async function sandboxModule(app: FastifyInstance, options: AppOptions): Promise<void> {
  if (!options.sandbox) {
    app.decorate('rbsFake', null);
    app.decorate('smsruFake', null);
    app.decorate('sandboxMail', null);
    return;
  }
  const fake = createRbsFake({ store: app.store, options, callbackKey: app.callbackKey, background: app.background });
  app.decorate('rbsFake', fake);
  const smsru = createSmsRuFake({ store: app.store, options, background: app.background });
  app.decorate('smsruFake', smsru);
  const mail = sandboxMailServer(app.store, options.sandboxSmtpPort, (message, error) => app.log.warn({ err: error }, message));
  app.decorate('sandboxMail', mail);
  app.addHook('onClose', () => mail.close());
  const css = fs.readFileSync(path.join(__dirname, 'sandbox.css'), 'utf8');
  app.get('/sandbox/sandbox.css', async (_request, reply) => reply.type('text/css; charset=utf-8').send(css));
  await app.register(named(rbsFakeRoutes), { options, fake });
  await app.register(named(acquirerSandbox), { fake });
  await app.register(named(sbpSandbox), { fake });
  await app.register(named(sberpaySandbox), { fake });
  await app.register(named(smsruFakeRoutes), { fake: smsru });
  await app.register(named(partiesSandbox), { fake: smsru });
  await app.register(named(webhooksSandbox), { secret: app.merchant.webhookSecret });
  await app.register(named(mailSandbox));
  await app.register(named(homeRoutes), { options });
  app.get('/sandbox/csp-reports', async () => ({ count: app.cspReports.count, reports: app.cspReports.recent }));
}
