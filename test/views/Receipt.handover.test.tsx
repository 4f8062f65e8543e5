import { render, screen } from '@testing-library/react';
import { Receipt } from '../../src/views/Receipt';
import { aReceipt } from '../fixtures/receipt';

const merchant = { name: 'ООО «Тест»', supportPhone: '', supportEmail: '' };

test("a bill's receipt after the handover says when the goods were handed over and where the closing receipt went", () => {
  // 23:30 on the 1st in UTC is the 2nd in Moscow: the day is Moscow's.
  const receipt = aReceipt({ email: 'i***@example.ru', fiscal: true, handover: { at: '2026-12-01T23:30:00.000Z', sentTo: 'i***@example.ru' } });
  render(<Receipt receipt={receipt} merchant={merchant} />);
  expect(screen.getByText('Товар передан 02.12.2026. Чек полного расчета отправлен на i***@example.ru')).toBeInTheDocument();
});

test('before the handover the receipt says nothing of it', () => {
  render(<Receipt receipt={aReceipt({ handover: null })} merchant={merchant} />);
  expect(screen.queryByText(/Товар передан/)).toBeNull();
});
