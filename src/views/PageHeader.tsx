import type { Merchant } from '../services/pageConfig';
import { messages } from '../services/messages';

/** The phone number for a tel: link: its digits with the leading '+'. */
export const telOf = (phone: string) => `tel:+${phone.replace(/\D/g, '')}`;

/**
 * The page's header on every page (checkout and result): who takes the money, that the line is secure, and how to
 * reach the merchant (a payer trusts a page that says whose it is).
 */
export function PageHeader({ merchant }: { merchant: Merchant }) {
  const t = messages.header;
  const phone = merchant.supportPhone ? (
    <a className="support-link" href={telOf(merchant.supportPhone)}>
      {merchant.supportPhone}
    </a>
  ) : null;
  const email = merchant.supportEmail ? (
    <a className="support-link" href={`mailto:${merchant.supportEmail}`}>
      {merchant.supportEmail}
    </a>
  ) : null;
  return (
    <header className="page-header">
      <span className="brand" aria-hidden="true">
        <svg viewBox="0 0 24 24" width="22" height="22" focusable="false">
          <rect x="2" y="5" width="20" height="14" rx="3" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M2 10h20" stroke="currentColor" strokeWidth="2" />
        </svg>
      </span>
      <div className="brand-text">
        <p className="brand-name">{merchant.name || messages.app.brand}</p>
        <p className="secure-note">{messages.app.secure}</p>
      </div>
      {(phone || email) && (
        <p className="support">
          {/* The label with the first contact, so they never part; the e-mail under it, or beside it where it fits. */}
          <span className="support-line">
            {t.support} {phone ?? email}
          </span>
          {phone && email}
        </p>
      )}
    </header>
  );
}
