import { useId } from 'react';
import { paymentKindOf, type PaymentKind, type PaymentTypeCode } from '../services/rules/paymentKinds';

/** Small inline icons: no extra requests, and they inherit the text colour. Decorative: hidden from screen readers. */
const svg = (children: React.ReactNode, size = 24) => (
  <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
    {children}
  </svg>
);

export const CardIcon = () =>
  svg(
    <>
      <rect x="2" y="5" width="20" height="14" rx="2.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
      <path d="M2 9.5h20" stroke="currentColor" strokeWidth="2.2" />
      <path d="M6 15h4" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
    </>,
  );

export const FastPaymentIcon = () =>
  svg(
    <>
      <path d="M4 4l5 3v10l-5 3z" fill="#5b57a2" />
      <path d="M9 7l11-3-5 8z" fill="#1d9bd7" />
      <path d="M9 17l11 3-5-8z" fill="#0f9e4d" />
      <path d="M9 7v10l6-5z" fill="#f5a623" />
    </>,
  );

/**
 * SberPay's mark: the bank's ring in its gradient, open where the tick runs out of it (a plain tick in a circle says
 * nothing of the bank). The gradient's id is the instance's own: two ways of bank-app pay may be listed.
 */
export function BankAppIcon() {
  const id = useId();
  return svg(
    <>
      <defs>
        <linearGradient id={id} x1="3" y1="21" x2="21" y2="3" gradientUnits="userSpaceOnUse">
          <stop offset="0" stopColor="#f2e913" />
          <stop offset="0.3" stopColor="#21a038" />
          <stop offset="0.7" stopColor="#0fa8e0" />
          <stop offset="1" stopColor="#0288e0" />
        </linearGradient>
      </defs>
      <path d="M21 9.6A9.3 9.3 0 1 1 17.9 4.7" fill="none" stroke={`url(#${id})`} strokeWidth="2.4" strokeLinecap="round" />
      <path d="M7.6 11.4l3.6 3.4 9.4-9" fill="none" stroke="#21a038" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
    </>,
  );
}

const kindIcons: Record<PaymentKind, () => React.ReactNode> = { redirect: CardIcon, 'fast payment': FastPaymentIcon, 'bank-app pay': BankAppIcon };

export function PaymentTypeIcon({ code }: { code: PaymentTypeCode }) {
  // A code this page does not know shows as a card, the plainest way to pay.
  const Icon = kindIcons[paymentKindOf(code)] ?? CardIcon;
  return <Icon />;
}

export const SuccessIcon = () =>
  svg(
    <>
      <circle cx="12" cy="12" r="11" fill="#12b76a" />
      <path d="M7 12.5l3.2 3.2L17 9" fill="none" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
    </>,
    56,
  );

export const FailureIcon = () =>
  svg(
    <>
      <circle cx="12" cy="12" r="11" fill="#d92d20" />
      <path d="M8.5 8.5l7 7m0-7l-7 7" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
    </>,
    56,
  );

export const LoadingIcon = () => <span className="spinner spinner-large" aria-hidden="true" />;

/** No connection: a signal with a stroke through it, in the warning colour (56 px in a status block, smaller in a notice). */
export const OfflineIcon = ({ size = 56 }: { size?: number }) =>
  svg(
    <>
      <circle cx="12" cy="12" r="11" fill="#f79009" />
      <path d="M6.5 10.5a8 8 0 0 1 11 0M8.7 13a5 5 0 0 1 6.6 0" fill="none" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
      <circle cx="12" cy="16" r="1.3" fill="#fff" />
      <path d="M6 6l12 12" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
    </>,
    size,
  );
