import { act, screen } from '@testing-library/react';
import { messages } from '../../src/services/messages';
import { pointsBill } from '../fixtures/accountFlows';
import { renderAccount } from './account.fixture';

/** The first screen (guest): the purpose once, and the amount after the points chosen. */

const sumRow = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling!.textContent;

test('the purpose is printed once: it is the title', async () => {
  await renderAccount({ bill: pointsBill() });
  expect(screen.getByRole('heading', { level: 1, name: 'Предоплата по договору № 17' })).toBeInTheDocument();
  expect(screen.getAllByText('Предоплата по договору № 17')).toHaveLength(1);
  expect(sumRow(messages.paymentInfo.sum)).toMatch(/^8\s000,00 руб\.$/);
  expect(screen.queryByText(messages.paymentInfo.billSum)).toBeNull();
});

test("with points chosen, 'Сумма к оплате' is what is left, under the bill's sum and the points", async () => {
  const { actor } = await renderAccount({ bill: pointsBill() });
  act(() => actor.send({ type: 'code.confirmed', request: { purpose: 'use-points', phone: '79990000001', points: 3000 } }));
  expect(sumRow(messages.paymentInfo.billSum)).toMatch(/^8\s000,00 руб\.$/);
  expect(sumRow(messages.paymentInfo.points)).toMatch(/^−3\s000 баллов$/);
  expect(sumRow(messages.paymentInfo.sum)).toMatch(/^5\s000,00 руб\.$/);
});

test('points covering the whole sum leave 0,00 to pay', async () => {
  const { actor } = await renderAccount({ bill: pointsBill({ info: { PaymentPurpose: 'Парковка', CustNo: 'C-100', Summ: 1500, Email: null } }) });
  act(() => actor.send({ type: 'code.confirmed', request: { purpose: 'use-points', phone: '79990000001', points: 1500 } }));
  expect(sumRow(messages.paymentInfo.sum)).toMatch(/^0,00 руб\.$/);
});
