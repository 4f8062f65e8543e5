import type { ClosedAs } from '../services/rules/billData';
import type { Merchant } from '../services/pageConfig';
import { messages } from '../services/messages';
import { telOf } from './PageHeader';

/** The words for a bill that takes no payment any more. */
export const closedTitle = (closedAs: ClosedAs) => messages.closed[closedAs];

/**
 * Whom to ask about a bill that takes no payment any more: the merchant's support phone and e-mail, as links. Nothing
 * when the merchant gave neither.
 */
export function SupportContacts({ merchant }: { merchant: Merchant }) {
  if (!merchant.supportPhone && !merchant.supportEmail) return null;
  return (
    <span className="closed-support">
      {messages.closed.support}{' '}
      {merchant.supportPhone && <a href={telOf(merchant.supportPhone)}>{merchant.supportPhone}</a>}
      {merchant.supportPhone && merchant.supportEmail && ', '}
      {merchant.supportEmail && <a href={`mailto:${merchant.supportEmail}`}>{merchant.supportEmail}</a>}
    </span>
  );
}
