import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { AppOptions } from '../config';
import { roublesText } from '../platform/money';
import { html } from '../platform/render';
import { objectOidSchema } from '../platform/schemas';
import { testCardsHint } from './acquirer';
import { copyDemoBill, demoAccount, demoBills } from './demoBills';
import { otherParty, sandboxPage } from './party';

/** The body of a request for a fresh copy: `{ from }`, the demo bill to copy. */
const copyBillSchema = { body: { type: 'object', required: ['from'], additionalProperties: false, properties: { from: objectOidSchema } } } as const;

/** What each demo bill shows a newcomer, in the page's language. */
const demoNotes: Record<string, string> = {
  'demo-anon': 'Без входа в кабинет: e-mail, затем карта, СБП или SberPay',
  'demo-points': 'Списать до 3\u00a0000 из 4\u00a0500 баллов, подтвердив кодом из СМС',
  'demo-reg': `Вход в кабинет: телефон ${demoAccount.phone}, пароль ${demoAccount.password}; регистрация, восстановление пароля`,
  'demo-offer': 'Оплата картой требует принять оферту и условия платежа',
  'demo-car': 'Предоплата за автомобиль: в чеке позиция с НДС 22/122',
  'demo-cover': 'Баллы покрывают весь счет: он закрывается без оплаты',
  'demo-paid': 'Уже оплаченный счет',
};

/**
 * The sandbox's start page (`GET /`): the demo bills with their links, a fresh copy of each one button away, and the
 * sandbox's tools, so a newcomer opening the root finds where to start. Only with the sandbox on.
 */
export const homeRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: { options: AppOptions } }> = async (app, { options }) => {
  app.get('/', async (_request, reply) => {
    // Routes registered by other parts of the sandbox are listed only when they exist (the webhook inbox may not).
    const has = (url: string) => app.hasRoute({ method: 'GET', url });
    const bills = demoBills.map(
      (bill) => html`<li class="sandbox-bill">
<a href="/pay/${bill.oid}">${bill.purpose}</a>
<span class="sandbox-hint">${bill.oid} · ${roublesText(bill.sumKopecks)} · ${demoNotes[bill.oid] ?? ''}</span>
${
  bill.paid
    ? null
    : html`<form method="post" action="/sandbox/fresh-bill"><input type="hidden" name="from" value="${bill.oid}"><button type="submit" class="secondary">Новая копия счета</button></form>`
}
</li>
`,
    );
    const body = html`<h1>Онлайн-оплата счетов: демо</h1>
<p>Откройте счет и оплатите картой: ${testCardsHint} Оплаченный счет остается оплаченным: для новой попытки возьмите его копию.</p>
<h2>Демо-счета</h2>
<ul class="sandbox-list">
${bills}</ul>
<h2>Инструменты песочницы</h2>
<ul class="sandbox-list">
<li><a href="/sandbox/sms?phone=79990000001">Отправленные СМС</a> <span class="sandbox-hint">коды подтверждения, по номеру телефона в адресе (JSON)</span></li>
<li><a href="/sandbox/mail">Почтовый ящик</a> <span class="sandbox-hint">письма со ссылками на оплату, отправленные из кабинета магазина</span></li>
<li><a href="/sandbox/free-call">Бесплатная линия</a> <span class="sandbox-hint">звонок, подтверждающий номер при восстановлении пароля</span></li>
${has('/sandbox/webhooks') ? html`<li><a href="/sandbox/webhooks">Входящие вебхуки</a> <span class="sandbox-hint">что сервер сообщил магазину</span></li>\n` : null}<li><a href="/desk/">Кабинет магазина</a> <span class="sandbox-hint">счета, платежи и возвраты для сотрудников; демо-входы печатает npm start</span></li>
<li><a href="/merchant/v1/openapi.json">API магазина (OpenAPI)</a> <span class="sandbox-hint">выставить счет и начислить баллы; ключ и пример curl печатает npm start, описание — docs/merchant-api.md</span></li>
<li><a href="/sandbox/csp-reports">Отчеты CSP</a> <span class="sandbox-hint">нарушения политики безопасности страницы (JSON)</span></li>
<li>Новый неоплаченный счет из командной строки:
<pre class="sandbox-code">curl -X POST -H 'content-type: application/json' -d '${JSON.stringify({ from: 'demo-anon' })}' ${options.publicUrl}/sandbox/bills</pre></li>
</ul>`;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(sandboxPage('Онлайн-оплата счетов: демо', body));
  });

  // A fresh unpaid copy of a demo bill, so that demos and tests never run out of bills to pay: `POST /sandbox/bills`
  // `{ from }` answers its objectOID (scripts, tests), the start page's 'Новая копия счета' opens its checkout.
  for (const [url, opensCheckout] of [
    ['/sandbox/bills', false],
    ['/sandbox/fresh-bill', true],
  ] as const) {
    app.post(url, { schema: copyBillSchema, config: otherParty }, async (request, reply) => {
      const objectOID = await copyDemoBill(app.store, request.body.from);
      if (!objectOID) return reply.code(404).send({ success: false, error: 'Нет такого демо-счета' });
      return opensCheckout ? reply.redirect(`/pay/${objectOID}`, 303) : reply.code(201).send({ objectOID });
    });
  }
};

