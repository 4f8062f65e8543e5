import { act, screen } from '@testing-library/react';
import { regBill } from '../fixtures/accountFlows';
import { renderAccount } from './account.fixture';

test("the fixed number from the page config and a tel: link 'Позвонить'; the wait is announced", async () => {
  const { actor, calls } = renderAccount({ bill: regBill() });
  act(() => actor.send({ type: 'code.sent', request: { purpose: 'forgot-password', phone: '79990000002' } }));
  act(() => actor.send({ type: 'nav.goTo', step: 'checkByPhone' }));
  expect(screen.getByRole('heading', { level: 1, name: 'Подтверждение звонком' })).toBeInTheDocument();
  expect(screen.getByText('+7 (800) 555-35-35')).toBeInTheDocument();
  // Which phone the call must come from: the one the code went to, masked as the code screen shows it.
  expect(screen.getByText('Звоните с номера +7 (999) ***-**-02 — только такой звонок подтвердит номер')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Позвонить' })).toHaveAttribute('href', 'tel:+78005553535');
  expect(calls.lockFreeCall.inputs).toEqual([{ phone: '79990000002' }]);
  expect(screen.getByRole('status')).toHaveTextContent('');
  await act(async () => calls.lockFreeCall.last.answer.resolve(true));
  expect(screen.getByRole('status')).toHaveTextContent('Ожидаем ваш звонок');
});
