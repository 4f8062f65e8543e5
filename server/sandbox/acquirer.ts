import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { ORDER_STATUS } from '../acquirer/rbs';
import { roublesText } from '../platform/money';
import { html } from '../platform/render';
import { otherParty, sandboxPage } from './party';
import { orderIdSchema } from '../platform/schemas';
import type { RbsFake } from './rbsFake';
import type { RbsOrderRow } from './tables';

/**
 * The sandbox's test cards: one pays, the others are declined each with the action code a bank answers for its reason
 * (the page words it: src/services/rules/declineReasons.ts); any other number is refused by the form.
 */
export const TEST_CARDS = {
  pays: '4111111111111111',
  /** Insufficient funds (116). */
  declined: '4000000000000002',
  /** The card expired (101). */
  expired: '4000000000000069',
  /** The issuer refused 3-D Secure (-2025). */
  threeDsFailed: '4000000000003063',
  /** Over the card's limit (121). */
  overLimit: '4000000000006975',
} as const;

const declineCodes: Record<string, number> = {
  [TEST_CARDS.declined]: 116,
  [TEST_CARDS.expired]: 101,
  [TEST_CARDS.threeDsFailed]: -2025,
  [TEST_CARDS.overLimit]: 121,
};

/** A test card as the acquirer masks it in cardAuthInfo: the first six and last four digits. */
const maskedPanOf = (card: string) => `${card.slice(0, 6)}**${card.slice(-4)}`;

/** A card number in groups of four, as it is printed on the card. */
const spaced = (card: string) => card.replace(/(\d{4})(?=\d)/g, '$1 ');

/** The test cards in the payer's words: on the fake's card form and the sandbox's start page. */
export const testCardsHint = html`оплата пройдет с картой <strong>${spaced(TEST_CARDS.pays)}</strong> (любой будущий срок, любой CVC); банк откажет:
${spaced(TEST_CARDS.declined)} — недостаточно средств, ${spaced(TEST_CARDS.expired)} — истек срок карты,
${spaced(TEST_CARDS.threeDsFailed)} — не пройдена проверка 3-D Secure, ${spaced(TEST_CARDS.overLimit)} — превышен лимит.`;

function cardForm(order: RbsOrderRow, error: string | null, values: { card?: string; expiry?: string; cvc?: string } = {}) {
  const describedBy = error ? html` aria-describedby="card-error" aria-invalid="true"` : null;
  return sandboxPage(
    'Оплата картой',
    html`<h1>Оплата картой</h1>
<p class="sandbox-amount">К оплате: <strong>${roublesText(order.amount)}</strong></p>
${order.email ? html`<p class="sandbox-hint">Чек будет отправлен на ${order.email}</p>\n` : null}<form method="post" action="/sandbox/acquirer/${order.order_id}" class="sandbox-form" novalidate>
${error ? html`<p class="sandbox-error" role="alert" id="card-error">${error}</p>` : null}
<label for="card">Номер карты</label>
<input id="card" name="card" inputmode="numeric" autocomplete="cc-number" required value="${values.card ?? ''}"${describedBy}>
<div class="sandbox-row">
<div><label for="expiry">Срок действия</label>
<input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" placeholder="ММ/ГГ" required value="${values.expiry ?? ''}"></div>
<div><label for="cvc">CVC</label>
<input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required value="${values.cvc ?? ''}"></div>
</div>
<button type="submit">Оплатить</button>
</form>
<p class="sandbox-hint">Тестовые карты: ${testCardsHint}</p>`,
  );
}

/**
 * The RBS fake's card form, at the `formUrl` its register.do answers. The payer's decision changes the fake's order; the
 * product learns it from the fake's callback and its getOrderStatusExtended.do, like from a real bank.
 */
export const acquirerSandbox: FastifyPluginAsyncJsonSchemaToTs<{ Options: { fake: RbsFake } }> = async (app, { fake }) => {
  const params = { type: 'object', properties: { orderId: orderIdSchema }, required: ['orderId'] } as const;
  const notFound = () => sandboxPage('Заказ не найден', html`<h1>Заказ не найден</h1>`);

  app.get('/sandbox/acquirer/:orderId', { schema: { params } }, async (request, reply) => {
    const order = await fake.order({ orderId: request.params.orderId });
    if (!order) return reply.code(404).type('text/html; charset=utf-8').send(notFound());
    if (order.order_status !== ORDER_STATUS.registered) return reply.redirect(fake.backUrl(order), 303);
    return reply.type('text/html; charset=utf-8').send(cardForm(order, null));
  });

  app.post(
    '/sandbox/acquirer/:orderId',
    {
      config: otherParty,
      schema: {
        params,
        body: {
          type: 'object',
          properties: { card: { type: 'string', maxLength: 40 }, expiry: { type: 'string', maxLength: 10 }, cvc: { type: 'string', maxLength: 10 } },
        },
      },
    },
    async (request, reply) => {
      const order = await fake.order({ orderId: request.params.orderId });
      if (!order) return reply.code(404).type('text/html; charset=utf-8').send(notFound());
      if (order.order_status !== ORDER_STATUS.registered) return reply.redirect(fake.backUrl(order), 303);

      const card = (request.body.card ?? '').replace(/\D/g, '');
      const expiryOk = /^(0[1-9]|1[0-2])\s*\/?\s*\d{2}$/.test((request.body.expiry ?? '').trim());
      const cvcOk = /^\d{3}$/.test((request.body.cvc ?? '').trim());
      let error: string | null = null;
      if (card !== TEST_CARDS.pays && declineCodes[card] === undefined) error = 'Используйте тестовую карту песочницы';
      else if (!expiryOk) error = 'Укажите срок действия в виде ММ/ГГ';
      else if (!cvcOk) error = 'CVC — три цифры с обратной стороны карты';
      if (error) return reply.code(400).type('text/html; charset=utf-8').send(cardForm(order, error, request.body));

      const decided = await fake.decide(order.order_id, card === TEST_CARDS.pays, { maskedPan: maskedPanOf(card), declineCode: declineCodes[card] ?? 0 });
      return reply.redirect(fake.backUrl(decided ?? order), 303);
    },
  );
};
