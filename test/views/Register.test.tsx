import { act, screen } from '@testing-library/react';
import { answer } from '../fixtures/accountFlows';
import { continueAsHuman, continueButton, renderAccount, renderAccountAt } from './account.fixture';
import { stepMessages } from '../../src/services/stepMessages';

const openRegister = () => renderAccountAt('Зарегистрироваться');
const privacy = () => screen.getByLabelText('Я согласен на обработку личных данных');

/** Fills the whole form with the phone's ten digits after +7, ticks the consent and the robot check, presses Continue. */
async function submitForm(user: Awaited<ReturnType<typeof openRegister>>['user'], phone: string, surname = 'Петров') {
  await user.type(screen.getByLabelText('Фамилия'), surname);
  await user.type(screen.getByLabelText('Имя'), 'Пётр');
  await user.type(screen.getByLabelText('Отчество'), 'Петрович');
  await user.type(screen.getByLabelText('Телефон'), phone);
  await user.click(privacy());
  await continueAsHuman(user);
}

test('the client form: surname, name, patronymic, phone, privacy consent and the robot check', async () => {
  await openRegister();
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Заполните анкету клиента');
  for (const label of ['Фамилия', 'Имя', 'Отчество', 'Телефон']) expect(screen.getByLabelText(label)).toBeInTheDocument();
  expect(privacy()).not.toBeChecked();
  expect(screen.getByLabelText('Я не робот')).toBeInTheDocument();
  expect(continueButton()).toBeDisabled();
});

test('an empty submit shows every field message and the incomplete-form line', async () => {
  const { user, calls } = await openRegister();
  await continueAsHuman(user);
  expect(screen.getByLabelText('Фамилия')).toHaveAccessibleDescription('Введите фамилию');
  expect(screen.getByLabelText('Имя')).toHaveAccessibleDescription('Введите имя');
  expect(screen.getByLabelText('Отчество')).toHaveAccessibleDescription('Введите отчество');
  expect(screen.getByLabelText('Телефон')).toHaveAccessibleDescription('Не указан телефон');
  expect(privacy()).toHaveAccessibleDescription('Подтвердите соглашение на обработку личных данных');
  expect(screen.getByRole('alert')).toHaveTextContent(stepMessages.validation.formIncomplete);
  expect(calls.sendCode.inputs).toEqual([]);
});

test('the privacy message shows only once the box was touched', async () => {
  const { user } = await openRegister();
  expect(screen.queryByText('Подтвердите соглашение на обработку личных данных')).not.toBeInTheDocument();
  await user.click(privacy());
  expect(screen.queryByText('Подтвердите соглашение на обработку личных данных')).not.toBeInTheDocument();
  await user.click(privacy());
  expect(privacy()).toHaveAccessibleDescription('Подтвердите соглашение на обработку личных данных');
});

test('filled but wrong: the not-all-correct line', async () => {
  const { user } = await openRegister();
  await submitForm(user, '599');
  expect(screen.getByLabelText('Телефон')).toHaveAccessibleDescription('Номер должен начинаться с 9');
  expect(screen.getByRole('alert')).toHaveTextContent(stepMessages.validation.formIncorrect);
});

test('a name holding a control character is refused with that name\'s words, and no code is sent', async () => {
  const { user, calls } = await openRegister();
  // Pasted: what no keyboard types.
  await user.click(screen.getByLabelText('Фамилия'));
  await user.paste('Пет\u0007ров');
  await user.type(screen.getByLabelText('Имя'), 'Пётр');
  await user.type(screen.getByLabelText('Отчество'), 'Петрович');
  await user.type(screen.getByLabelText('Телефон'), '9991234567');
  await user.click(privacy());
  await continueAsHuman(user);
  expect(screen.getByLabelText('Фамилия')).toHaveAccessibleDescription('Введите фамилию');
  expect(screen.getByRole('alert')).toHaveTextContent(stepMessages.validation.formIncorrect);
  expect(calls.sendCode.inputs).toEqual([]);
});

test('a complete form sends a register code and keeps the form values for the registration', async () => {
  const { user, calls, actor } = await openRegister();
  await submitForm(user, '9991234567', ' Петров ');
  expect(calls.sendCode.inputs[0]).toMatchObject({ phone: '79991234567', purpose: 'register', usePoints: false });
  await act(async () => calls.sendCode.last.answer.resolve(answer()));
  expect(screen.getByRole('heading', { level: 1, name: 'Проверочный код был отправлен' })).toBeInTheDocument();
  // The free-call hint is for forgot-password only.
  expect(screen.queryByRole('link', { name: /бесплатным звонком/ })).not.toBeInTheDocument();
  // The form stays with the code flow, for the registration once the code is right.
  expect(actor.getSnapshot().children.code?.getSnapshot().context.request).toEqual({
    purpose: 'register',
    phone: '79991234567',
    form: { surname: 'Петров', name: 'Пётр', patronymic: 'Петрович', phone: '79991234567', privacy: true },
  });
});

test('a refused send says when a code may be sent again, as an alert above Continue', async () => {
  const { user, calls } = await openRegister();
  await submitForm(user, '9991234567');
  await act(async () => calls.sendCode.last.answer.resolve(answer({ success: false, showCaptcha: true, secondsLeft: 21, error: 'too early' })));
  expect(screen.getByRole('alert')).toHaveTextContent('Повторная отправка кода возможна через 21 секунду');
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Заполните анкету клиента');
});

test('reloaded on the code screen after its code ran out: the form has what the payer typed, the consent asked again', async () => {
  const form = { surname: 'Сидорова', name: 'Мария', patronymic: 'Ивановна', phone: '79991230017', privacy: true };
  await renderAccount({ resumePath: '/checkSendCode', codeDraft: { purpose: 'register', phone: form.phone, form } });
  expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Заполните анкету клиента');
  expect(screen.getByLabelText('Фамилия')).toHaveValue('Сидорова');
  expect(screen.getByLabelText('Имя')).toHaveValue('Мария');
  expect(screen.getByLabelText('Отчество')).toHaveValue('Ивановна');
  expect(screen.getByLabelText('Телефон')).toHaveValue('+7 (999) 123-00-17');
  expect(privacy()).not.toBeChecked();
});
