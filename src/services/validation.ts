import * as yup from 'yup';
import { messages } from './messages';

const v = messages.validation;

/** Phone digits as sent: 11 digits starting with 79 (SPEC §5); the mask's other characters are stripped before. */
export const phoneSchema = yup
  .string()
  // The mask's own '+7' alone means nothing was typed yet: that is a missing phone, not a wrong one.
  .transform((value: unknown) => (typeof value === 'string' ? value.replace(/\D/g, '').replace(/^7$/, '') : value))
  .required(v.phoneRequired)
  .test('starts-with-79', v.phoneStart, (value) => !value || value.startsWith('79'))
  .test('eleven-digits', v.phoneLength, (value) => !value || value.length === 11);

// A practical e-mail check: something@domain.tld, no spaces (the server has the final word, SPEC §5).
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export const emailSchema = yup.string().trim().required(v.emailRequired).matches(EMAIL, v.emailFormat);

export const emailFormSchema = yup.object({ email: emailSchema });
