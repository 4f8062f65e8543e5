import { useSelector } from '@xstate/react';
import type { CheckoutActor } from '../machines/checkout';
import { messages } from '../services/messages';
import { StatusBlock, type PaymentStatusActor } from './StatusBlock';

/** Fast payment (SPEC §2): the QR on desktop; the bank-app link on a phone. 'Другой способ оплаты' goes back. */
export function Sbp({ actor }: { actor: CheckoutActor }) {
  const { qrSrc, formUrl, isDesktop } = useSelector(actor, (state) => state.context);
  const status = useSelector(actor, (state) => state.children.paymentStatus as PaymentStatusActor | undefined);

  return (
    <section aria-labelledby="step-title">
      <h1 id="step-title" className="step-title">
        СБП
      </h1>
      {isDesktop ? (
        <>
          <p>{messages.sbp.desktop}</p>
          {qrSrc && <img className="qr" src={qrSrc} alt={messages.sbp.qrAlt} width={240} height={240} />}
        </>
      ) : (
        formUrl && (
          <a className="button primary" href={formUrl}>
            {messages.sbp.openBankApp}
          </a>
        )
      )}
      {status && <StatusBlock actor={status} />}
      <button type="button" className="link" onClick={() => actor.send({ type: 'nav.back' })}>
        {messages.sbp.anotherMethod}
      </button>
    </section>
  );
}
