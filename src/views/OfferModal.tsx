import { useSelector } from './useSelector';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { offerMachine } from '../machines/offer';
import { stepMessages } from '../services/stepMessages';
import { OfferText } from './offerHtml';

export type OfferActor = ActorRefFrom<typeof offerMachine>;

const focusable = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * The offer modal: the offer's text and a close button. A real dialog for assistive technology: focus
 * moves in on open, Tab stays inside, Escape closes, and focus goes back to the link that opened it.
 */
export function OfferModal({ offer }: { offer: OfferActor }) {
  const view = useSelector(offer, (state) => ({
    open: state.hasTag('open'),
    loading: state.hasTag('loading'),
    failed: state.hasTag('failed'),
    text: state.context.text,
    kind: state.context.kind,
  }), (a, b) => a.open === b.open && a.loading === b.loading && a.failed === b.failed && a.text === b.text && a.kind === b.kind);
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const openerRef = useRef<Element | null>(null);

  useEffect(() => {
    if (!view.open) return;
    openerRef.current = document.activeElement;
    closeRef.current?.focus();
    return () => {
      const opener = openerRef.current as HTMLElement | null;
      if (opener && typeof opener.focus === 'function' && opener.isConnected) opener.focus();
    };
  }, [view.open]);

  if (!view.open) return null;

  const close = () => offer.send({ type: 'offer.close' });
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
      return;
    }
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const items = Array.from(dialogRef.current.querySelectorAll<HTMLElement>(focusable));
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="modal-backdrop" onClick={(event) => event.target === event.currentTarget && close()}>
      <div
        ref={dialogRef}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="offer-title"
        aria-busy={view.loading}
        onKeyDown={onKeyDown}
      >
        <h2 id="offer-title" className="modal-title">
          {/* The payment terms are not the offer: each is titled as its link names it. */}
          {view.kind === 'executor' ? stepMessages.offer.executorTitle : stepMessages.offer.title}
        </h2>
        <div className="modal-body">
          {view.loading && (
            <p role="status" className="status-text">
              <span className="spinner" aria-hidden="true" /> {stepMessages.offer.loading}
            </p>
          )}
          {view.failed && (
            <p role="alert" className="form-error">
              {stepMessages.choosePaymentType.offerFailed}
            </p>
          )}
          {view.text && <OfferText html={view.text} />}
        </div>
        <button ref={closeRef} type="button" className="button secondary" onClick={close}>
          {stepMessages.offer.close}
        </button>
      </div>
    </div>
  );
}
