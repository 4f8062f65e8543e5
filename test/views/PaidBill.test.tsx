import { render, screen } from '@testing-library/react';
import { receiptMessages as t } from '../../src/services/receiptMessages';
import { PaidBill } from '../../src/views/PaidBill';
import { aReceipt } from '../fixtures/receipt';

const merchant = { name: 'ООО «Тест»', supportPhone: '', supportEmail: '' };
const receipt = aReceipt();

test("a paid bill's link: 'Счет оплачен' with its receipt, and 'Вернуться в магазин' when the bill has a return address", () => {
  render(<PaidBill receipt={{ ...receipt, returnUrl: 'https://shop.example.ru/orders/1' }} merchant={merchant} />);
  expect(screen.getByRole('heading', { name: t.paidTitle })).toHaveFocus();
  expect(screen.getByRole('link', { name: t.backToShop })).toHaveAttribute('href', 'https://shop.example.ru/orders/1');
});

test('no return address (or not a web one): no way back is offered', () => {
  const { unmount } = render(<PaidBill receipt={receipt} merchant={merchant} />);
  expect(screen.queryByRole('link', { name: t.backToShop })).toBeNull();
  unmount();
  render(<PaidBill receipt={{ ...receipt, returnUrl: 'javascript:alert(1)' }} merchant={merchant} />);
  expect(screen.queryByRole('link', { name: t.backToShop })).toBeNull();
});
