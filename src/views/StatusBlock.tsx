import { useSelector } from './useSelector';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { paymentStatusMachine } from '../machines/paymentStatus';
import { stepMessages } from '../services/stepMessages';
import { receiptMessages } from '../services/receiptMessages';
import { formatMoney } from '../services/format';
import { FailureIcon, LoadingIcon, OfflineIcon, SuccessIcon } from './icons';

/** A fast payment came from the payer's bank account, and goes back there; any other way, to the card. */
const FAST_PAYMENT = 'SBP';

export type PaymentStatusActor = ActorRefFrom<typeof paymentStatusMachine>;

/** What the payer is told about the payment, from the polling's state. */
export type Outcome =
  | 'success'
  /** Paid, then given back whole by the merchant. */
  | 'returned'
  | 'declined'
  | 'refunded'
  /** The money is blocked on the card until the merchant captures or releases it. */
  | 'held'
  /** The hold was let go, nothing taken. */
  | 'released'
  | 'order not found'
  | 'document not found'
  | 'offline'
  | 'created'
  | 'unknown'
  | 'bill paid elsewhere'
  | 'cancelled'
  | 'slow';

/**
 * The outcome of a poll's state. `cancelled`: the bank's widget sent the payer back (`state=return`); while the bank
 * says nothing the payment is cancelled, not pending. The address bar only picks the words for 'nothing happened':
 * a success the server reports is a success whatever it says.
 */
export function outcomeOf(state: SnapshotFrom<typeof paymentStatusMachine>, options: { cancelled?: boolean; quietUntilAnswered?: boolean } = {}): Outcome {
  if (state.hasTag('success')) return state.context.receipt?.refund?.whole ? 'returned' : 'success';
  if (state.hasTag('declined')) return state.context.receipt?.billPaid ? 'bill paid elsewhere' : 'declined';
  if (state.hasTag('refunded')) return 'refunded';
  if (state.hasTag('released')) return 'released';
  if (state.hasTag('order not found')) return 'order not found';
  if (state.hasTag('document not found')) return 'document not found';
  if (state.hasTag('offline')) return 'offline';
  // Held: the polling goes on for the merchant's capture or release, but the payer's answer is already this.
  if (state.context.hold) return 'held';
  if (options.cancelled && state.context.answered) return 'cancelled';
  if (options.quietUntilAnswered && !state.context.answered) return 'unknown';
  if (state.context.slow) return 'slow';
  return 'created';
}

/** A clock, standing still: a slow bank is waited for, not spun for ever. */
const ClockIcon = () => (
  <svg viewBox="0 0 24 24" width={56} height={56} aria-hidden="true" focusable="false">
    <circle cx="12" cy="12" r="11" fill="#f79009" />
    <path d="M12 6.5V12l3.6 2.2" fill="none" stroke="#fff" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

/** A lock, shut while the money is held and open once the hold is let go. */
const LockIcon = ({ open = false }: { open?: boolean }) => (
  <svg viewBox="0 0 24 24" width={56} height={56} aria-hidden="true" focusable="false">
    <circle cx="12" cy="12" r="11" fill={open ? '#667085' : '#1570ef'} />
    <rect x="7.5" y="11" width="9" height="7" rx="1.5" fill="#fff" />
    <path d={open ? 'M9.5 11V8.5a2.5 2.5 0 0 1 4.9-.7' : 'M9.5 11V8.5a2.5 2.5 0 0 1 5 0V11'} fill="none" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
  </svg>
);

const views: Record<Outcome, { icon: React.ReactNode; text: string; kind: string }> = {
  success: { icon: <SuccessIcon />, text: stepMessages.status.success, kind: 'success' },
  // The words name the amount (see StatusBlock); the payment did go through, so no failure's cross.
  returned: { icon: <SuccessIcon />, text: '', kind: 'returned' },
  declined: { icon: <FailureIcon />, text: stepMessages.status.declined, kind: 'declined' },
  refunded: { icon: <FailureIcon />, text: stepMessages.status.refunded, kind: 'declined' },
  'order not found': { icon: <FailureIcon />, text: stepMessages.status.orderNotFound, kind: 'declined' },
  'document not found': { icon: <FailureIcon />, text: stepMessages.status.notFound404, kind: 'declined' },
  // Not a success's tick: nothing is taken yet. The lock says the money is blocked.
  held: { icon: <LockIcon />, text: receiptMessages.held, kind: 'held' },
  released: { icon: <LockIcon open />, text: receiptMessages.released, kind: 'released' },
  offline: { icon: <OfflineIcon />, text: stepMessages.status.offline, kind: 'offline' },
  'bill paid elsewhere': { icon: <SuccessIcon />, text: receiptMessages.billPaidElsewhere, kind: 'success' },
  cancelled: { icon: <FailureIcon />, text: receiptMessages.cancelled, kind: 'declined' },
  // Still waiting, said as it is: no spinner for ever.
  slow: { icon: <ClockIcon />, text: receiptMessages.slow, kind: 'slow' },
  created: { icon: <LoadingIcon />, text: stepMessages.status.created, kind: 'created' },
  unknown: { icon: null, text: '', kind: 'unknown' },
};

interface Props {
  actor: PaymentStatusActor;
  /**
   * Say nothing until the server has answered: on the fast-payment step 'Получаем данные о платеже' before
   * the bank was even reached read as if the payment were under way. The live region is there from the start, so
   * what it says later is announced.
   */
  quietUntilAnswered?: boolean;
  /** The bank's widget sent the payer back (`state=return`). */
  cancelled?: boolean;
  /** While waiting, what the step asks of the payer instead of not to leave the page (a phone's fast payment). */
  createdText?: string;
}

/** The status block of the result and fast-payment steps: an icon and the status text, announced politely. */
export function StatusBlock({ actor, quietUntilAnswered = false, cancelled = false, createdText }: Props) {
  const outcome = useSelector(actor, (state) => outcomeOf(state, { cancelled, quietUntilAnswered }));
  const view = views[outcome];
  const receipt = useSelector(actor, (state) => state.context.receipt);
  const refund = receipt?.refund;
  const text =
    outcome === 'returned' && refund
      ? receiptMessages.refundedWhole(formatMoney(refund.amount))
      : outcome === 'refunded' && receipt
        ? stepMessages.status.refundedTo(formatMoney(receipt.amount), receipt.method?.code === FAST_PAYMENT ? 'account' : 'card')
        : view.text;
  return (
    <div className={`status-block status-${view.kind}`}>
      {view.icon && <div className="status-icon">{view.icon}</div>}
      <p className="status-text" role="status" aria-live="polite">
        {outcome === 'created' && createdText ? createdText : text}
      </p>
    </div>
  );
}
