import * as yup from 'yup';
import { isTextLine } from './rules/freeText';
import { PHONE_DIGITS, PHONE_PREFIX } from './rules/phone';
import { stepMessages } from './stepMessages';

const v = stepMessages.validation;

/**
 * A field of one line of free text, as the server takes it (rules/freeText.ts: no control character, line break or half
 * a character): refused with the field's own words, as the server refuses it.
 */
const oneLine = (schema: yup.StringSchema<string | undefined>, message: string) => schema.test('one line of text', message, (value) => !value || isTextLine(value));

/** Phone digits as sent (rules/phone.ts: 11 digits starting with 79); the mask's other characters are stripped before. */
export const phoneSchema = yup
  .string()
  // The mask's own '+7' alone means nothing was typed yet: that is a missing phone, not a wrong one.
  .transform((value: unknown) => (typeof value === 'string' ? value.replace(/\D/g, '').replace(/^7$/, '') : value))
  .required(v.phoneRequired)
  .test('starts-with-79', v.phoneStart, (value) => !value || value.startsWith(PHONE_PREFIX))
  .test('eleven-digits', v.phoneLength, (value) => !value || value.length === PHONE_DIGITS);

// A practical e-mail check: something@domain.tld, no spaces (the server has the final word).
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export const emailSchema = oneLine(yup.string().trim().required(v.emailRequired).matches(EMAIL, v.emailFormat), v.emailFormat);

export const emailFormSchema = yup.object({ email: emailSchema });

// Account screens. The phone is held as the 11 digits the mask yields ('7' and the ten typed).

export const signInSchema = yup.object({
  phone: phoneSchema,
  password: oneLine(yup.string().required(v.passwordRequired), v.passwordRequired),
});

export const forgotPasswordSchema = yup.object({ phone: phoneSchema });

const personName = (message: string) => oneLine(yup.string().trim().required(message), message);

export const registerSchema = yup.object({
  surname: personName(v.surnameRequired),
  name: personName(v.nameRequired),
  patronymic: personName(v.patronymicRequired),
  phone: phoneSchema,
  privacy: yup.boolean().oneOf([true], v.privacyRequired).required(v.privacyRequired),
});

/**
 * Points: required ('Заполните поле') and at most the maximum, which is said rather than silently cut;
 * below zero and fractions the field clamps as it is left, and the flow clamps again.
 */
export const pointsSchema = (maximum: number) =>
  yup.object({
    points: yup
      .number()
      .transform((value: number, original: unknown) => (original === '' || original === null ? undefined : value))
      .typeError(stepMessages.usePoints.required)
      .required(stepMessages.usePoints.required)
      .max(maximum, stepMessages.usePoints.tooMany(maximum)),
  });

/** The four-digit code: exactly 4 characters, else 'Введите код'. */
export const codeSchema = yup.string().required(stepMessages.code.incomplete).matches(/^\d{4}$/, stepMessages.code.incomplete);

/**
 * The form-level line after a submit that failed validation: 'Форма заполнена не полностью.' while a
 * required field is still empty, 'Извините, не все поля заполнены корректно.' when all are filled but some are wrong.
 */
export function formProblem<Values extends object>(values: Values, required: readonly (keyof Values)[]): string {
  const empty = required.some((field) => {
    const value: unknown = values[field];
    return value === '' || value === null || value === undefined || value === false;
  });
  return empty ? v.formIncomplete : v.formIncorrect;
}
