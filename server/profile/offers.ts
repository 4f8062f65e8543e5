/**
 * The offer documents a payer accepts before paying by a way that asks for them (the page's offer modal): the payment
 * aggregator's offer and the executor's terms of payment. Each is a title and a text the merchant publishes at the
 * desk, with blanks the server fills per bill and way to pay. Until the merchant publishes its own, the texts below.
 */
import { html } from '../platform/render';

export type OfferKind = 'aggregator' | 'executer';
export const OFFER_KINDS: readonly OfferKind[] = ['aggregator', 'executer'];

export interface OfferDocument {
  title: string;
  /** Paragraphs separated by an empty line; blanks in braces (OFFER_BLANKS). */
  text: string;
}

/** The blanks a text may hold, each filled per bill: the way to pay's name, the bill's purpose, the fee. */
export const OFFER_BLANKS = ['{способ оплаты}', '{назначение платежа}', '{сервисный сбор}'] as const;
type Blank = (typeof OFFER_BLANKS)[number];

export const DEFAULT_OFFERS: Record<OfferKind, OfferDocument> = {
  aggregator: {
    title: 'Оферта платежного агрегатора',
    text:
      'Платеж способом «{способ оплаты}» принимает платежный агрегатор по поручению получателя. Назначение платежа: {назначение платежа}.\n\n' +
      'Сервисный сбор агрегатора: {сервисный сбор} Вы принимаете условия оферты, отметив «Я принимаю условия оферты» перед оплатой.',
  },
  executer: {
    title: 'Условия платежа',
    text:
      'Исполнитель принимает оплату способом «{способ оплаты}» в счет обязательств по документу: {назначение платежа}.\n\n' +
      'Обязательство считается исполненным с момента поступления денег исполнителю. Вы принимаете условия платежа, отметив «Я принимаю условия платежа» перед оплатой.',
  },
};

export const OFFER_TITLE_MAX = 200;
export const OFFER_TEXT_MAX = 20_000;

/** What is wrong with a document the merchant publishes (in the desk's words), by field; none when it is fine. */
export function offerProblems(document: OfferDocument, field: string): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  if (document.title.trim() === '' || document.title.length > OFFER_TITLE_MAX) problems.push({ field: `${field}.title`, message: `от 1 до ${OFFER_TITLE_MAX} символов` });
  if (document.text.trim() === '' || document.text.length > OFFER_TEXT_MAX) problems.push({ field: `${field}.text`, message: `от 1 до ${OFFER_TEXT_MAX} символов` });
  const unknown = (document.text.match(/\{[^{}]*\}/g) ?? []).filter((blank) => !(OFFER_BLANKS as readonly string[]).includes(blank));
  if (unknown.length > 0) problems.push({ field: `${field}.text`, message: `неизвестная подстановка ${unknown[0]}; можно ${OFFER_BLANKS.join(', ')}` });
  return problems;
}

/**
 * The document as the payer reads it (HTML): the title, then each paragraph with its blanks filled. Everything the
 * merchant or the bill wrote is escaped; a line break inside a paragraph stays one.
 */
export function offerHtml(document: OfferDocument, filled: Record<Blank, string>): string {
  const paragraphs = document.text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => {
      const lines = paragraph.split('\n').map((line) => line.split(/(\{[^{}]*\})/).map((part) => (Object.hasOwn(filled, part) ? filled[part as Blank] : part)).join(''));
      return html`<p>${lines.map((line, i) => (i === 0 ? html`${line}` : html`<br>${line}`))}</p>`;
    });
  return html`<h2>${document.title}</h2>
${paragraphs.map((paragraph, i) => (i === 0 ? paragraph : html`\n${paragraph}`))}`.markup;
}
