/**
 * A payer's phone as the page sends it and the server keeps it: 11 digits, the country code 7 then a mobile number
 * starting with 9. The page's field shows a mask; only these digits leave it.
 */
export const PHONE_PREFIX = '79';
export const PHONE_DIGITS = 11;

/** The same rule as a pattern, for JSON schemas and plain checks. */
export const PHONE_PATTERN = `^${PHONE_PREFIX}[0-9]{${PHONE_DIGITS - PHONE_PREFIX.length}}$`;

const phoneRegExp = new RegExp(PHONE_PATTERN);

export const isPhone = (digits: string): boolean => phoneRegExp.test(digits);
