import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { AppOptions } from '../config';
import { copyDemoBill, demoAccount, demoBills } from './demoBills';
import { toRoubles } from '../platform/money';
import { html, sandboxPage } from '../platform/render';
import { TEST_CARDS } from './acquirer';
import { copyBillSchema } from './bills';

/** What each demo bill shows a newcomer (DESIGN §8), in the page's language. */
const demoNotes: Record<string, string> = {
  'demo-anon': 'Без входа в кабинет: e-mail, затем карта, СБП или SberPay',
  'demo-points': 'Списать до 3\u00a0000 из 4\u00a0500 баллов, подтвердив кодом из СМС',
  'demo-reg': `Вход в кабинет: телефон ${demoAccount.phone}, пароль ${demoAccount.password}; регистрация, восстановление пароля`,
  'demo-offer': 'Оплата картой требует принять оферту и условия платежа',
  'demo-cover': 'Баллы покрывают весь счет: он закрывается без оплаты',
  'demo-paid': 'Уже оплаченный счет',
};

const amount = (kopecks: number) => `${toRoubles(kopecks).toLocaleString('ru-RU', { minimumFractionDigits: 2 })} руб.`;

/**
 * The sandbox's start page (`GET /`): the demo bills with their links, a fresh copy of each one button away, and the
 * sandbox's tools (issue 17: a newcomer opening the root got a JSON 404). Only with the sandbox on.
 */
export const homeRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: { options: AppOptions } }> = async (app, { options }) => {
  app.get('/', async (_request, reply) => {
    // Routes registered by other parts of the sandbox are listed only when they exist (the webhook inbox may not).
    const has = (url: string) => app.hasRoute({ method: 'GET', url });
    const bills = demoBills.map(
      (bill) => html`<li class="sandbox-bill">
<a href="/pay/${bill.oid}">${bill.purpose}</a>
<span class="sandbox-hint">${bill.oid} · ${amount(bill.sumKopecks)} · ${demoNotes[bill.oid] ?? ''}</span>
${
  bill.paid
    ? null
    : html`<form method="post" action="/sandbox/fresh-bill"><input type="hidden" name="from" value="${bill.oid}"><button type="submit" class="secondary">Новая копия счета</button></form>`
}
</li>
`,
    );
    const body = html`<h1>Онлайн-оплата счетов: демо</h1>
<p>Откройте счет и оплатите тестовой картой <strong>${spaced(TEST_CARDS.pays)}</strong> (любой будущий срок, любой CVC); карта
<strong>${spaced(TEST_CARDS.declined)}</strong> отклоняется. Оплаченный счет остается оплаченным: для новой попытки возьмите его копию.</p>
<h2>Демо-счета</h2>
<ul class="sandbox-list">
${bills}</ul>
<h2>Инструменты песочницы</h2>
<ul class="sandbox-list">
<li><a href="/sandbox/sms?phone=79990000001">Отправленные СМС</a> <span class="sandbox-hint">коды подтверждения, по номеру телефона в адресе (JSON)</span></li>
<li><a href="/sandbox/free-call">Бесплатная линия</a> <span class="sandbox-hint">звонок, подтверждающий номер при восстановлении пароля</span></li>
${has('/sandbox/webhooks') ? html`<li><a href="/sandbox/webhooks">Входящие вебхуки</a> <span class="sandbox-hint">что сервер сообщил магазину</span></li>\n` : null}<li><a href="/merchant/v1/openapi.json">API магазина (OpenAPI)</a> <span class="sandbox-hint">выставить счет и начислить баллы; ключ и пример curl печатает npm start, описание — docs/merchant-api.md</span></li>
<li><a href="/sandbox/csp-reports">Отчеты CSP</a> <span class="sandbox-hint">нарушения политики безопасности страницы (JSON)</span></li>
<li>Новый неоплаченный счет из командной строки:
<pre class="sandbox-code">curl -X POST -H 'content-type: application/json' -d '${JSON.stringify({ from: 'demo-anon' })}' ${options.publicUrl}/sandbox/bills</pre></li>
</ul>`;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(sandboxPage('Онлайн-оплата счетов: демо', body));
  });

  // The start page's 'Новая копия счета': a fresh unpaid copy of a demo bill, then its checkout.
  app.post(
    '/sandbox/fresh-bill',
    { schema: copyBillSchema },
    async (request, reply) => {
      const objectOID = await copyDemoBill(app.store, request.body.from);
      if (!objectOID) return reply.code(404).send({ success: false, error: 'Нет такого демо-счета' });
      return reply.redirect(`/pay/${objectOID}`, 303);
    },
  );
};

/** A card number in groups of four, as it is printed on the card. */
const spaced = (card: string) => card.replace(/(\d{4})(?=\d)/g, '$1 ');
