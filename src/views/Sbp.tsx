import { useSelector } from '@xstate/react';
import { useContext, useId, useState } from 'react';
import { derive, type CheckoutActor } from '../machines/checkout';
import { messages } from '../services/messages';
import { PageContext } from './appContext';
import { StatusBlock } from './StatusBlock';

const t = messages.sbp;

/**
 * Fast payment (SPEC §2): the QR on desktop; on a phone the bank-app link, with the QR behind a toggle. The
 * status is polled from the moment the step shows (the checkout's paymentStatus child); 'Другой способ оплаты'
 * goes back. No next button: the step moves on by itself when the payment settles.
 */
export function Sbp({ actor }: { actor: CheckoutActor }) {
  const { qrSrc, formUrl, isDesktop } = useSelector(actor, (state) => state.context);
  const typeName = useSelector(actor, (state) => derive.selectedType(state.context)?.Name);
  const status = useSelector(actor, (state) => state.children.paymentStatus);
  // Whether the QR is unfolded on a phone is view state only, not a step of the flow.
  const [qrShown, setQrShown] = useState(false);
  const qrId = useId();
  // Through the page's Back when mounted in the page, so the address bar and browser history stay aligned.
  const page = useContext(PageContext);
  const goBack = () => (page ? page.goBack() : actor.send({ type: 'nav.back' }));

  const qr = qrSrc && <img className="qr" src={qrSrc} alt={t.qrAlt} width={240} height={240} />;

  return (
    <section aria-labelledby="step-title">
      <h1 id="step-title" className="step-title">
        {typeName ?? t.title}
      </h1>
      {isDesktop ? (
        <>
          <p>{t.desktop}</p>
          {qr}
        </>
      ) : (
        <>
          {formUrl && (
            <a className="button primary" href={formUrl}>
              {t.openBankApp}
            </a>
          )}
          {qrSrc && (
            <>
              <button type="button" className="link" aria-expanded={qrShown} aria-controls={qrId} onClick={() => setQrShown((shown) => !shown)}>
                {qrShown ? t.hideQr : t.showQr}
              </button>
              <div id={qrId} hidden={!qrShown}>
                {qrShown && qr}
              </div>
            </>
          )}
        </>
      )}
      {status && <StatusBlock actor={status} />}
      <button type="button" className="link" onClick={goBack}>
        {t.anotherMethod}
      </button>
    </section>
  );
}
