import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { paymentStatusMachine } from '../machines/paymentStatus';
import { messages } from '../services/messages';
import { FailureIcon, LoadingIcon, OfflineIcon, SuccessIcon } from './icons';

export type PaymentStatusActor = ActorRefFrom<typeof paymentStatusMachine>;

interface Props {
  actor: PaymentStatusActor;
  /**
   * Say nothing until the server has answered (issue 17): on the fast-payment step 'Получаем данные о платеже' before
   * the bank was even reached read as if the payment were under way. The live region is there from the start, so
   * what it says later is announced.
   */
  quietUntilAnswered?: boolean;
}

/** The status block of SPEC §2/§4: an icon and the status text, announced politely as it changes. */
export function StatusBlock({ actor, quietUntilAnswered = false }: Props) {
  const view = useSelector(
    actor,
    (state) => {
      if (state.hasTag('success')) return { icon: <SuccessIcon />, text: messages.status.success, kind: 'success' };
      if (state.hasTag('declined')) return { icon: <FailureIcon />, text: messages.status.declined, kind: 'declined' };
      if (state.hasTag('refunded')) return { icon: <FailureIcon />, text: messages.status.refunded, kind: 'declined' };
      if (state.hasTag('order not found')) return { icon: <FailureIcon />, text: messages.status.orderNotFound, kind: 'declined' };
      if (state.hasTag('document not found')) return { icon: <FailureIcon />, text: messages.status.notFound404, kind: 'declined' };
      if (state.hasTag('offline')) return { icon: <OfflineIcon />, text: messages.status.offline, kind: 'offline' };
      if (quietUntilAnswered && !state.context.answered) return { icon: null, text: '', kind: 'unknown' };
      return { icon: <LoadingIcon />, text: messages.status.created, kind: 'created' };
    },
    (a, b) => a.text === b.text,
  );

  return (
    <div className={`status-block status-${view.kind}`}>
      {view.icon && <div className="status-icon">{view.icon}</div>}
      <p className="status-text" role="status" aria-live="polite">
        {view.text}
      </p>
    </div>
  );
}
