import { useSelector } from './useSelector';
import { useContext, useId, useState } from 'react';
import { derive, type CheckoutActor } from '../machines/checkout';
import { bankListMessages } from '../services/bankListMessages';
import { formatMoney } from '../services/format';
import { stepMessages } from '../services/stepMessages';
import { roublesOf } from '../services/pricing';
import { PageContext } from './appContext';
import { BankList } from './BankList';
import { StatusBlock } from './StatusBlock';
import { StepSection } from './StepSection';
import './sbp.css';

const t = stepMessages.sbp;

/**
 * Fast payment: the amount first on both. On desktop the QR with 'Оплата с помощью мобильного приложения банка' beside
 * it and how to scan it under that, the bank list under them on request. On a phone the banks to open the payment in,
 * 'Открыть приложение банка' for any other, the QR behind 'Показать QR-код'; every one of them leaves the page, so the
 * status says to come back after paying rather than not to leave. Without a list (none provided, or it cannot be
 * loaded) the phone keeps the one link, 'Открыть приложение банка'. The status is polled from the moment the step
 * shows (the checkout's paymentStatus child); 'Другой способ оплаты' goes back. No next button: the step moves on by
 * itself when the payment settles.
 */
export function Sbp({ actor }: { actor: CheckoutActor }) {
  const { qrSrc, formUrl, isDesktop } = useSelector(actor, (state) => state.context);
  const typeName = useSelector(actor, (state) => derive.selectedType(state.context)?.Name);
  const amount = useSelector(actor, (state) => derive.amountToPay(state.context));
  const status = useSelector(actor, (state) => state.children.paymentStatus);
  // Whether the QR (phone) or the bank list (desktop) is unfolded is view state only, not a step of the flow.
  const [qrShown, setQrShown] = useState(false);
  const [listShown, setListShown] = useState(false);
  const qrId = useId();
  const listId = useId();
  // Through the page's Back when mounted in the page, so the address bar and browser history stay aligned.
  const page = useContext(PageContext);
  const goBack = () => (page ? page.goBack() : actor.send({ type: 'nav.back' }));
  const bankList = page?.bankList;

  const qr = qrSrc && <img className="qr" src={qrSrc} alt={t.qrAlt} width={240} height={240} />;
  const openBankApp = formUrl && (
    <a className="button primary" href={formUrl}>
      {t.openBankApp}
    </a>
  );

  return (
    <StepSection title={isDesktop ? (typeName ?? t.title) : bankListMessages.chooseBank}>
      <p className="sbp-amount">
        <span>{bankListMessages.amount}</span> <strong>{formatMoney(roublesOf(amount))}</strong>
      </p>
      {isDesktop ? (
        <>
          <div className="sbp-qr">
            {qr}
            <div className="sbp-how">
              <p className="sbp-how-title">{t.desktopTitle}</p>
              <p>{t.scanQr}</p>
            </div>
          </div>
          {bankList && formUrl && (
            <>
              <button type="button" className="link" aria-expanded={listShown} aria-controls={listId} onClick={() => setListShown((shown) => !shown)}>
                {listShown ? bankListMessages.closeList : bankListMessages.openList}
              </button>
              <div id={listId} className="sbp-desktop-list" hidden={!listShown}>
                {listShown && <BankList dependencies={bankList} payload={formUrl} heading={bankListMessages.chooseBank} fallback={null} />}
              </div>
            </>
          )}
        </>
      ) : (
        <>
          {bankList && formUrl ? <BankList dependencies={bankList} payload={formUrl} labelledBy="step-title" fallback={openBankApp} /> : openBankApp}
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
      {/* Nothing about the payment until the first status answer. */}
      {status && <StatusBlock actor={status} quietUntilAnswered createdText={isDesktop ? undefined : t.comeBack} />}
      <button type="button" className="link" onClick={goBack}>
        {t.anotherMethod}
      </button>
    </StepSection>
  );
}
