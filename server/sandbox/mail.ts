/**
 * The sandbox's mail: an SMTP server of its own on 127.0.0.1 (smtp-server), which the product reaches over SMTP like
 * any mail server when no SMTP_URL is set, and its inbox: `GET /sandbox/mail` (a page, `?to=` one address) and
 * `GET /sandbox/mail.json?to=…` (the newest letters as JSON). It is made and listens once the product first sends a
 * letter, so a server that sends none opens no port and loads neither smtp-server nor the parser; the letters go into
 * the database, so any process's server fills one inbox.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { sql } from 'kysely';
import type { SMTPServer } from 'smtp-server';
import { html } from '../platform/render';
import type { Store } from '../store/store';
import { sandboxPage } from './party';
import type { SandboxMailRow } from './tables';

export interface SandboxMailServer {
  /** The server's URL for the product (`smtp://127.0.0.1:<port>`), listening from the first call on. */
  url(): Promise<string>;
  close(): Promise<void>;
}

/** Letters larger than this are refused (a pay link's letter is a few kilobytes, its logo at most 200 KB). */
const MAX_LETTER_BYTES = 2 * 1024 * 1024;

export function sandboxMailServer(store: Store, port: number, log: (message: string, error?: unknown) => void): SandboxMailServer {
  let listening: Promise<{ server: SMTPServer; url: string }> | null = null;
  const listen = async () => {
    const { SMTPServer } = await import('smtp-server');
    const server = mailbox(SMTPServer, store, log);
    const url = await new Promise<string>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve(`smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`));
    });
    return { server, url };
  };
  return {
    url: async () => (await (listening ??= listen())).url,
    close: async () => {
      const open = await listening?.catch(() => null);
      if (open) await new Promise<void>((resolve) => open.server.close(() => resolve()));
    },
  };
}

/** The SMTP server that keeps each letter it is given in the sandbox's mailbox. */
function mailbox(Server: typeof SMTPServer, store: Store, log: (message: string, error?: unknown) => void): SMTPServer {
  const server = new Server({
    // A local test mailbox: no TLS to negotiate, no login to give.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    size: MAX_LETTER_BYTES,
    banner: 'Sandbox mailbox',
    logger: false,
    onData(stream, session, callback) {
      // The parser is loaded with the first letter: most servers' mailboxes never receive one.
      import('mailparser')
        .then(({ simpleParser }) => simpleParser(stream))
        .then(async (letter) => {
          const to = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
          await store.db
            .insertInto('sandbox_mail')
            .values({
              message_id: letter.messageId ?? null,
              mail_from: letter.from?.text ?? (session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
              rcpt_to: to.join(','),
              subject: letter.subject ?? '',
              text: letter.text ?? '',
              html: typeof letter.html === 'string' ? letter.html : null,
              received_at: store.now(),
            })
            .execute();
          callback();
        })
        .catch((error: unknown) => {
          log('the sandbox mailbox could not keep a letter', error);
          callback(error instanceof Error ? error : new Error(String(error)));
        });
    },
  });
  server.on('error', (error) => log('the sandbox mailbox failed', error));
  return server;
}

/** The letters to an address (or to anyone), the newest first. */
export const lettersTo = (store: Store, to: string | null, limit: number): Promise<SandboxMailRow[]> => {
  let query = store.db.selectFrom('sandbox_mail').selectAll();
  // rcpt_to is a comma list: match one address whole (an address's own _ or % matches only itself).
  if (to) {
    const literal = to.replace(/[\\%_]/g, (c) => `\\${c}`);
    const like = (pattern: string) => sql<boolean>`rcpt_to LIKE ${pattern} ESCAPE '\\'`;
    query = query.where((eb) => eb.or([eb('rcpt_to', '=', to), like(`${literal},%`), like(`%,${literal}`), like(`%,${literal},%`)]));
  }
  return query.orderBy('id', 'desc').limit(limit).execute();
};

/** The first pay link a letter carries (a convenience for tests and testers, as the SMS inbox gives the code). */
const payLinkIn = (text: string) => /https?:\/\/\S+\/pay\/[A-Za-z0-9_-]+/.exec(text)?.[0] ?? null;

const mailQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { to: { type: 'string', maxLength: 254 }, limit: { type: 'string', pattern: '^[0-9]{1,3}$' } },
} as const;

export const mailSandbox: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  const store = app.store;
  const read = (query: { to?: string; limit?: string }) => lettersTo(store, query.to ? query.to.trim().toLowerCase() : null, Math.min(100, Math.max(1, Number(query.limit ?? 20))));

  app.get('/sandbox/mail.json', { schema: { querystring: mailQuery } }, async (request) => ({
    to: request.query.to ?? null,
    messages: (await read(request.query)).map((letter) => ({
      id: letter.id,
      messageId: letter.message_id,
      from: letter.mail_from,
      to: letter.rcpt_to.split(','),
      subject: letter.subject,
      text: letter.text,
      html: letter.html,
      payLink: payLinkIn(letter.text),
      receivedAt: new Date(letter.received_at).toISOString(),
    })),
  }));

  app.get('/sandbox/mail', { schema: { querystring: mailQuery } }, async (request, reply) => {
    const letters = await read(request.query);
    const body = html`<h1>Почтовый ящик</h1>
<p>Письма, которые сервер отправил через SMTP-сервер песочницы, новые сверху${request.query.to ? html` (кому: ${request.query.to})` : ''}. JSON: <a href="/sandbox/mail.json">/sandbox/mail.json?to=…</a></p>
${
  letters.length === 0
    ? html`<p class="sandbox-hint">Пока ничего не пришло: отправьте ссылку на оплату из кабинета магазина (/desk/).</p>`
    : html`<ul class="sandbox-list">
${letters.map(
  (letter) => html`<li><strong>${letter.subject}</strong>
<span class="sandbox-hint">Кому: ${letter.rcpt_to.split(',').join(', ')} · от ${letter.mail_from} · ${new Date(letter.received_at).toISOString()}</span>
<pre class="sandbox-code">${letter.text}</pre></li>
`,
)}</ul>`
}`;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(sandboxPage('Почтовый ящик', body));
  });
};
