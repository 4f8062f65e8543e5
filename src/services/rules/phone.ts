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

const MASKED_PHONE = /^\+\d \(\d{3}\) \*{3}-\*{2}-\d{2}$/;

/** A phone written as maskPhone writes it ('+7 (999) ***-**-22'). */
export const isMaskedPhone = (phone: string): boolean => MASKED_PHONE.test(phone);

/**
 * "+7 (999) ***-**-22": the page's way of writing a phone, with the digits a stranger should not read hidden. The
 * server masks the bill customer's phone this way before the page sees it (and the code it sent), so a phone masked
 * already stays as it is; the page masks the one typed the same way, so the code screen reads alike before and after a
 * reload.
 */
export function maskPhone(phone: string): string {
  if (isMaskedPhone(phone)) return phone;
  const d = phone.replace(/\D/g, '');
  if (d.length !== PHONE_DIGITS) return '***';
  return `+${d[0]} (${d.slice(1, 4)}) ***-**-${d.slice(9, 11)}`;
}
