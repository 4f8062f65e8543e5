import { act, screen } from '@testing-library/react';
import { answer, pointsBill } from '../fixtures/accountFlows';
import { renderAccount, sendAndLoad } from './account.fixture';
import { stepMessages } from '../../src/services/stepMessages';

async function openPoints(bill = pointsBill()) {
  const rendered = await renderAccount({ bill });
  await rendered.user.click(screen.getByRole('button', { name: 'Использовать баллы' }));
  return rendered;
}
const useButton = () => screen.getByRole('button', { name: 'Использовать баллы' });
const pointsField = () => screen.getByLabelText('Сколько баллов списать');

test('the totals, the number input prefilled with the maximum, and the button', async () => {
  await openPoints();
  expect(screen.getByRole('heading', { level: 1, name: 'Бонусные баллы' })).toBeInTheDocument();
  expect(screen.getByText('Всего бонусных баллов:').nextSibling).toHaveTextContent('4 500 баллов');
  expect(screen.getByText('Можно использовать:').nextSibling).toHaveTextContent('3 000 баллов');
  expect(pointsField()).toHaveAttribute('type', 'number');
  expect(pointsField()).toHaveValue(3000);
  expect(useButton()).toBeEnabled();
});

test("an empty field shows 'Заполните поле' and the incomplete-form line", async () => {
  const { user, calls } = await openPoints();
  await user.clear(pointsField());
  await user.click(useButton());
  expect(pointsField()).toHaveAccessibleDescription('Заполните поле');
  expect(screen.getByRole('alert')).toHaveTextContent(stepMessages.validation.formIncomplete);
  expect(calls.sendCode.inputs).toEqual([]);
});

test('points below zero are clamped to 0 when the field is left', async () => {
  const { user } = await openPoints();
  await user.clear(pointsField());
  await user.type(pointsField(), '-5');
  await user.tab();
  expect(pointsField()).toHaveValue(0);
});

test("more than the maximum says 'Можно списать не более 3 000 баллов', nothing changed behind the payer's back", async () => {
  const { user, calls } = await openPoints();
  await user.clear(pointsField());
  await user.type(pointsField(), '99999');
  await user.tab();
  expect(pointsField()).toHaveValue(99999);
  expect(pointsField()).toHaveAccessibleDescription('Можно списать не более 3\u00a0000 баллов');
  await user.click(useButton());
  expect(calls.sendCode.inputs).toEqual([]);
  await user.clear(pointsField());
  await user.type(pointsField(), '3000');
  expect(pointsField()).not.toHaveAccessibleDescription();
});

test.each([
  [1, 'Можно списать не более 1 балла'],
  [3, 'Можно списать не более 3 баллов'],
  [21, 'Можно списать не более 21 балла'],
  // Russian grouping: a no-break space between the groups.
  [3000, 'Можно списать не более 3\u00a0000 баллов'],
])("the message's plural for %i", (max, text) => {
  expect(stepMessages.usePoints.tooMany(max)).toBe(text);
});

test('the points go with a use-points code to the customer phone; then the code screen', async () => {
  const { user, calls, actor } = await openPoints();
  await user.clear(pointsField());
  await user.type(pointsField(), '1000');
  await user.click(useButton());
  // The page names no phone: the server sends the code to the bill's own, which the page holds masked.
  expect(calls.sendCode.inputs).toEqual([{ phone: null, purpose: 'use-points', objectOID: 'bill-1', custNo: 'C-100', usePoints: true, captcha: null }]);
  expect(useButton()).toBeDisabled();
  await act(async () => calls.sendCode.last.answer.resolve(answer()));
  expect(screen.getByRole('heading', { level: 1, name: 'Проверочный код был отправлен' })).toBeInTheDocument();
  expect(actor.getSnapshot().context).toMatchObject({ sendSmsPhone: '+7 (999) ***-**-01', pointsToUse: 1000 });
  expect(screen.getByText('+7 (999) ***-**-01', { exact: false })).toBeInTheDocument();
});

test('when the server asks for the robot check the button waits for it', async () => {
  const { user, calls } = await openPoints();
  await user.click(useButton());
  await act(async () => calls.sendCode.last.answer.resolve(answer({ success: false, showCaptcha: true })));
  expect(useButton()).toBeDisabled();
  await user.click(screen.getByLabelText('Я не робот'));
  await user.click(useButton());
  expect(calls.sendCode.inputs[1]?.captcha).toBe('10000000-aaaa-bbbb-cccc-000000000001');
});

test("without a customer number: 'Бонусных баллов для оплаты не найдено'", async () => {
  const { actor } = await renderAccount({ bill: pointsBill({ info: { PaymentPurpose: 'Счет', CustNo: null, Summ: 8000, Email: null } }) });
  await sendAndLoad(actor, { type: 'nav.goTo', step: 'usePoints' });
  expect(screen.getByText('Бонусных баллов для оплаты не найдено')).toBeInTheDocument();
  expect(screen.queryByLabelText('Сколько баллов списать')).not.toBeInTheDocument();
});

test("a bill in parts whose points a part already spent: 'Бонусных баллов для оплаты не найдено'", async () => {
  const parts = { minimum: 1000, paid: 4000, remaining: 4000, pointsSpent: true };
  const { actor } = await renderAccount({ bill: pointsBill({ parts }) });
  await sendAndLoad(actor, { type: 'nav.goTo', step: 'usePoints' });
  expect(screen.getByText('Бонусных баллов для оплаты не найдено')).toBeInTheDocument();
  expect(screen.queryByLabelText('Сколько баллов списать')).not.toBeInTheDocument();
});

test('with the phone already checked, the points apply at once and the main route shows them', async () => {
  const { user, calls, actor } = await openPoints();
  act(() => actor.send({ type: 'code.confirmed', request: { purpose: 'use-points', phone: '79990000001', points: 10 } }));
  // Points chosen, the block's button says it changes them (no longer 'Использовать баллы').
  expect(screen.queryByRole('button', { name: 'Использовать баллы' })).toBeNull();
  await user.click(screen.getByRole('button', { name: 'Изменить баллы' }));
  await user.clear(pointsField());
  await user.type(pointsField(), '500');
  await user.click(useButton());
  expect(calls.sendCode.inputs).toEqual([]);
  expect(screen.getByText(/Использовано баллов: 500 баллов/)).toBeInTheDocument();
});
