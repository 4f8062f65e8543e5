/**
 * The server's refusals in the desk's words. The rules and their messages are the merchant API's (one validation for
 * both doors); the API writes them in English for programmers, so the desk says the same thing in Russian: each known
 * message by its pattern, anything else as the server wrote it. Fields keep the API's names (`items[0].price.value`),
 * which the form's inputs carry too, so each problem sits under its input.
 */
import type { DeskApiError } from './http';
import { deskMessages } from './messages';
import type { FieldProblem } from './types';

const money = (value: string) => value.replace('.', ',');

/** Each of the API's field messages, and its Russian. */
const FIELD_MESSAGES: [RegExp, (...parts: string[]) => string][] = [
  [/^must be (\d+) to (\d+) characters$/, (min, max) => `от ${min} до ${max} символов`],
  [/^must be more than 0\.00$/, () => 'больше 0,00'],
  [/^must be 0\.00 or more$/, () => '0,00 или больше'],
  [/^must be 11 digits starting with 79$/, () => '11 цифр, начиная с 79'],
  [/^must be (\d+) to (\d+) letters, digits, _ or -$/, (min, max) => `от ${min} до ${max} латинских букв, цифр, _ или -`],
  [/^must be a whole number, 0 or more$/, () => 'целое число, 0 или больше'],
  [/^each code at most once$/, () => 'каждый способ оплаты не больше одного раза'],
  [/^must not be empty$/, () => 'не может быть пустым'],
  [/^must list at least one payment type$/, () => 'хотя бы один способ оплаты'],
  [/^points need customer\.custNo$/, () => 'для баллов нужен номер клиента'],
  [/^must be an e-mail address$/, () => 'адрес электронной почты'],
  [/^must be in the future$/, () => 'дата в будущем'],
  [/^must be more than 0 and below 100000, with at most 3 decimals$/, () => 'больше 0 и меньше 100 000, не больше трех знаков после запятой'],
  [/^must be one of (.+)$/, (list) => `одно из значений: ${list}`],
  [/^must list (\d+) to (\d+) positions/, (min, max) => `от ${min} до ${max} позиций`],
  [/^the positions \(quantity × price\) add up to ([\d.]+), not to amount\.value ([\d.]+)$/, (sum, amount) => `позиции (количество × цена) дают ${money(sum)}, а сумма счета ${money(amount)}`],
  [/^must be absolute URL|^must be an absolute URL$/, () => 'полный адрес'],
  [/^must be https \(http only on localhost\)$/, () => 'только https (http — лишь для localhost)'],
  [/^must match \^/, () => 'недопустимые символы'],
  [/^must have required property '(.+)'$/, () => 'обязательное поле'],
  [/^must NOT have more than (\d+) characters$/, (max) => `не длиннее ${max} символов`],
  // At least one character is a field left empty: said so, not as a length.
  [/^must NOT have fewer than 1 characters$/, () => 'обязательное поле'],
  [/^must NOT have fewer than (\d+) characters$/, (min) => `не короче ${min} символов`],
  [/^must NOT have more than (\d+) items$/, (max) => `не больше ${max}`],
  [/^must NOT have fewer than (\d+) items$/, (min) => `не меньше ${min}`],
  [/^must match pattern /, () => 'неверный формат'],
  [/^must match format "date-time"$/, () => 'дата и время'],
  [/^must be equal to one of the allowed values$/, () => 'выберите из списка'],
  [/^is not a field of this request$/, () => 'лишнее поле'],
  [/^must be (<|<=|>|>=) ([\d.]+)$/, (op, n) => `${op === '<' || op === '<=' ? 'не больше' : 'не меньше'} ${n}`],
  [/^must be (string|number|integer|boolean|object|array)$/, () => 'неверное значение'],
  [/^must be more than 0\.00 and at most amount\.value$/, () => 'больше 0,00 и не больше суммы счета'],
  [/^cannot be given with capture manual/, () => 'нельзя вместе со списанием после подтверждения: блокируется один платеж'],
  [/^cannot hold money: a bill with capture manual takes cards only$/, () => 'не может блокировать деньги: при списании после подтверждения — только карты'],
  [/^([\d.]+) RUB is more than is held: ([\d.]+) RUB$/, (asked, held) => `${money(asked)} больше заблокированной суммы: ${money(held)}`],
  [/^is in the future: the goods must be handed over already$/, () => 'дата в будущем: товар должен быть уже передан'],
  [/^(-?[\d.]+) is more than remains to refund of this payment: ([\d.]+)$/, (asked, left) => `${money(asked)} больше, чем осталось вернуть: ${money(left)}`],
];

/** One of the server's messages in Russian (as it came when it is not one the desk knows). */
export function russianMessage(message: string): string {
  for (const [pattern, say] of FIELD_MESSAGES) {
    const match = pattern.exec(message);
    if (match) return say(...match.slice(1));
  }
  return message;
}

/** The fields at fault, in Russian. */
export const russianFields = (fields: readonly FieldProblem[]): FieldProblem[] => fields.map((problem) => ({ field: problem.field, message: russianMessage(problem.message) }));

/** Codes whose words are the desk's own, whatever the server's message. */
const CODE_WORDS: Record<string, string> = {
  forbidden: deskMessages.problems.forbidden,
  network: deskMessages.problems.network,
  csrf: deskMessages.problems.stale,
  internal_error: deskMessages.problems.failed,
  payment_not_refundable: 'Этот платеж нельзя вернуть: он не оплачен или оплачен одними баллами',
  refund_exceeds_remaining: 'Сумма больше, чем осталось вернуть',
  payment_not_held: 'Деньги по этому платежу уже не заблокированы: обновите страницу',
  capture_exceeds_held: 'Сумма больше заблокированной',
  acquirer_unavailable: 'Банк не подтвердил операцию: деньги все еще заблокированы. Повторите',
  already_handed_over: 'Передача товара по этому счету уже отмечена',
  nothing_to_close: 'Закрывать нечего: счет не оплачен полностью, оплачен одними баллами или его чеки не были предоплатой',
  payment_held: 'По счету есть заблокированный платеж: сначала спишите или разблокируйте его',
  bill_held: 'Деньги по счету заблокированы на карте: сначала спишите или разблокируйте их',
  bill_paid: 'Счет уже оплачен',
  bill_cancelled: 'Счет отменен',
  bill_expired: 'Срок оплаты счета истек',
  bill_exists: 'Счет с таким номером уже есть',
  idempotency_key_reused: 'Форма уже отправлена с другими данными: откройте ее заново',
  invalid_request: 'Проверьте поля формы',
};

/**
 * What to say of a refusal: the desk's words for its code; for the server's own words in Russian (its messages are the
 * desk's when the code is the desk's), translated when they are the API's.
 */
export function refusalText(error: Pick<DeskApiError, 'code' | 'message'>): string {
  if (error.code === 'refund_exceeds_remaining' || error.code === 'capture_exceeds_held') {
    const translated = russianMessage(error.message);
    return translated !== error.message ? translated : CODE_WORDS[error.code]!;
  }
  return CODE_WORDS[error.code] ?? russianMessage(error.message);
}
