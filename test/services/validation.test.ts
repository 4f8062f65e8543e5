import { emailFormSchema, emailSchema, phoneSchema, registerSchema, signInSchema } from '../../src/services/validation';

const errorOf = async (schema: { validate(value: unknown): Promise<unknown> }, value: unknown) => {
  try {
    await schema.validate(value);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('phone', () => {
  test('required', async () => {
    expect(await errorOf(phoneSchema, '')).toBe('Не указан телефон');
    expect(await errorOf(phoneSchema, undefined)).toBe('Не указан телефон');
    // What the mask shows before anything is typed: the country code alone is no phone yet.
    expect(await errorOf(phoneSchema, '+7 (___) ___-__-__')).toBe('Не указан телефон');
    expect(await errorOf(phoneSchema, '+7')).toBe('Не указан телефон');
  });

  test('must start with 79', async () => {
    expect(await errorOf(phoneSchema, '+7 (899) 000-00-01')).toBe('Номер должен начинаться с 9');
    expect(await errorOf(phoneSchema, '89990000001')).toBe('Номер должен начинаться с 9');
  });

  test('exactly 11 digits', async () => {
    expect(await errorOf(phoneSchema, '+7 (999) 000-00')).toBe('Введите верный номер телефона');
    expect(await errorOf(phoneSchema, '799900000011')).toBe('Введите верный номер телефона');
  });

  test('a masked phone is accepted and sent as digits', async () => {
    expect(await errorOf(phoneSchema, '+7 (999) 000-00-01')).toBeNull();
    expect(await phoneSchema.validate('+7 (999) 000-00-01')).toBe('79990000001');
  });
});

describe('e-mail', () => {
  test('required', async () => {
    expect(await errorOf(emailSchema, '')).toBe('Не указан email');
    expect(await errorOf(emailSchema, '   ')).toBe('Не указан email');
  });

  test.each(['name', 'name@', 'name@host', 'name@host.', '@host.ru', 'na me@host.ru', 'name@@host.ru', 'name@host..ru'])(
    '%s is not an e-mail',
    async (value) => {
      expect(await errorOf(emailSchema, value)).toBe('Введите корректный email');
    },
  );

  test.each(['a@b.ru', 'ivan.petrov+bill@mail.example.ru', 'почта@пример.рф'])('%s is accepted', async (value) => {
    expect(await errorOf(emailSchema, value)).toBeNull();
  });

  test('surrounding spaces are trimmed, and the form schema checks its email field', async () => {
    expect(await emailSchema.validate('  a@b.ru ')).toBe('a@b.ru');
    expect(await errorOf(emailFormSchema, { email: 'x' })).toBe('Введите корректный email');
  });
});

describe('free text, refused as the server refuses it, with the field\'s own words', () => {
  const never = ['\u0000', '\u0007', '\u001b', '\u007f', '\ud800', '\t', '\u2028'];
  const form = { surname: 'Петров', name: 'Пётр', patronymic: 'Петрович', phone: '79991234567', privacy: true };

  test.each(never.map((c) => [c.charCodeAt(0).toString(16), c]))('U+%s in the e-mail, a name or the password', async (_code, c) => {
    expect(await errorOf(emailSchema, `payer${c}x@example.ru`)).toBe('Введите корректный email');
    expect(await errorOf(registerSchema, { ...form, surname: `Пет${c}ров` })).toBe('Введите фамилию');
    expect(await errorOf(registerSchema, { ...form, name: `Пё${c}тр` })).toBe('Введите имя');
    expect(await errorOf(registerSchema, { ...form, patronymic: `Петро${c}вич` })).toBe('Введите отчество');
    expect(await errorOf(signInSchema, { phone: '79991234567', password: `se${c}cret` })).toBe('Нужно ввести пароль');
  });

  test('letters of any plane pass', async () => {
    expect(await errorOf(registerSchema, { ...form, surname: 'Петров-Водкин' })).toBeNull();
    expect(await errorOf(signInSchema, { phone: '79991234567', password: 'пароль😀' })).toBeNull();
  });
});
