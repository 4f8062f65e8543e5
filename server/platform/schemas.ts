/** JSON-schema pieces shared by the routes of several domains, so every route refuses the same bad input the same way. */
import type { FastifyError } from 'fastify';
import { MANAGER_ID_PATTERN } from '../../src/services/pageConfig';
import { textFormats } from '../../src/services/rules/freeText';
import { stepMessages } from '../../src/services/stepMessages';
import { OBJECT_OID_PATTERN, PHONE_PATTERN } from './patterns';

/** The page's words for a refused field (SPEC's), which the server answers for the same field. */
export const fieldWords = stepMessages.validation;

/**
 * What every validator of the server knows beyond JSON Schema, the page's routes' and the merchant API's alike:
 * - the formats of free text, `text-line` and `text-lines` (src/services/rules/freeText.ts), which a string field
 *   taking text from outside names;
 * - `fieldMessage`, the words a page's call answers when that field is refused (the page's own words for the field);
 * - errors that carry the schema they failed (`verbose`), so that a refusal can find those words.
 */
export const validatorOptions = {
  formats: textFormats,
  keywords: ['fieldMessage'],
  verbose: true,
};

/**
 * The `error` of a page's call refused by its schema: the refused field's own words when its schema has some
 * (`fieldMessage`), else what the validator said.
 */
export function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0] as { parentSchema?: { fieldMessage?: unknown } } | undefined;
  const words = first?.parentSchema?.fieldMessage;
  return typeof words === 'string' ? words : `Неверные данные запроса: ${error.message}`;
}

/** A phone: 11 digits starting with 79. */
export const phoneSchema = { type: 'string', pattern: PHONE_PATTERN, fieldMessage: fieldWords.phoneLength } as const;

/** A bill's id (its objectOID, or on the page's side its link id), in every route schema that takes one (patterns.ts). */
export const objectOidSchema = { type: 'string', pattern: OBJECT_OID_PATTERN } as const;
export const nullableOidSchema = { type: ['string', 'null'], pattern: OBJECT_OID_PATTERN } as const;

/** A payment type's id as the page names it (cardTypeOID, such as `demo-anon.ALL`): the bill's link id, a dot and the type's code. */
export const cardTypeOidSchema = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}\\.[A-Za-z0-9_-]{1,32}$' } as const;

/** A payment attempt's order id (a UUID here; the acquirer's own ids look alike). */
export const orderIdSchema = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,100}$' } as const;

/**
 * The manager who brought the payer, from the manager_id cookie or the payment request. The page sends the cookie only
 * when it fits (src/services/pageConfig.ts), and the server ignores a cookie that does not.
 */
export const managerIdSchema = { type: ['string', 'null'], pattern: MANAGER_ID_PATTERN } as const;
const managerIdRegExp = new RegExp(MANAGER_ID_PATTERN);
export const isManagerId = (value: string): boolean => managerIdRegExp.test(value);

/** A refusal's body, for the response schemas of routes that declare theirs: `{ success: false, error }`. */
export const failureSchema = {
  type: 'object',
  required: ['success', 'error'],
  properties: { success: { type: 'boolean', const: false }, error: { type: 'string' } },
} as const;
