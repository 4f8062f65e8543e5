import { render, screen } from '@testing-library/react';
import { messages } from '../../src/services/messages';
import { PageHeader } from '../../src/views/PageHeader';

/** Issue 17 (trust): the header says whose page it is and how to reach them. */

test("the merchant's name, the secure note and the support phone and e-mail as links", () => {
  render(<PageHeader merchant={{ name: 'ООО «Демо Девелопмент»', supportPhone: '+7 (800) 555-01-00', supportEmail: 'support@example.com' }} />);
  const header = screen.getByRole('banner');
  expect(header).toHaveTextContent('ООО «Демо Девелопмент»');
  expect(header).toHaveTextContent(messages.app.secure);
  expect(screen.getByRole('link', { name: '+7 (800) 555-01-00' })).toHaveAttribute('href', 'tel:+78005550100');
  expect(screen.getByRole('link', { name: 'support@example.com' })).toHaveAttribute('href', 'mailto:support@example.com');
  expect(header).toHaveTextContent(messages.header.support);
});

test('what is not configured is not shown: no support line without a contact; the generic brand without a name', () => {
  render(<PageHeader merchant={{ name: '', supportPhone: '', supportEmail: '' }} />);
  expect(screen.getByRole('banner')).toHaveTextContent(messages.app.brand);
  expect(screen.queryByText(messages.header.support)).not.toBeInTheDocument();
  expect(screen.queryByRole('link')).not.toBeInTheDocument();
});
