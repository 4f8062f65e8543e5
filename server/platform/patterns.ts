/**
 * The formats of what the server is given (ids, phones, e-mail addresses), as rules any part may check against: the
 * HTTP schemas (schemas.ts) build on them, and so does a bill's input check, which no HTTP is involved in.
 */

/**
 * A bill's id, checked against this one pattern before any use: in every route schema, the page route, the sandbox and
 * a new bill's input. The merchant's objectOID and the bill's public link id (`pl_…`, which the page's calls carry under
 * the provider API's names: objectOID, billOID, billOid) both fit, as do demo bills (`demo-anon`), their copies
 * (`demo-anon-1a2b3c4d5e6f`) and account OIDs.
 */
export const OBJECT_OID_PATTERN = '^[A-Za-z0-9_-]{1,64}$';
const objectOidRegExp = new RegExp(OBJECT_OID_PATTERN);
export const isObjectOid = (value: string): boolean => objectOidRegExp.test(value);

/** Free text (src/services/rules/freeText.ts): the page's own rule, and what a field refused by it is told. */
export { isTextLine, isTextLines, TEXT_LINE, TEXT_LINES } from '../../src/services/rules/freeText';
export const TEXT_LINE_PROBLEM = 'must be one line of text: no control characters, line breaks or unpaired surrogates';
export const TEXT_LINES_PROBLEM = 'must be text without control characters (but tab and line feed) or unpaired surrogates';

/** A phone as the page sends it and the provider's API writes it: the page's own rule. */
export { isPhone, PHONE_PATTERN } from '../../src/services/rules/phone';

/**
 * A plausible e-mail: one @, no spaces, a dotted domain, and no control or invisible formatting characters (U+0000,
 * U+202E and the like), which no address has and which only confuse what shows it. /ajax/check-email/, the receipt
 * e-mail of /api/getPaymentUrl/ and a new bill's addresses all use this rule.
 */
const emailPattern = /^[^\s@"<>()[\],;:]+@[A-Za-z0-9\u00a1-\uffff-]+(\.[A-Za-z0-9\u00a1-\uffff-]+)*\.[A-Za-z\u00a1-\uffff]{2,}$/;
const invisibleCharacters = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
export const isPlausibleEmail = (email: string): boolean => !invisibleCharacters.test(email) && emailPattern.test(email);
