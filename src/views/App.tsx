import { AppActor, useCheckoutActor, usePage } from './appContext';
import { Checkout } from './Checkout';
import { closedTitle, SupportContacts } from './ClosedBillNote';
import { CodeFailed } from './CodeFailed';
import { messages } from '../services/messages';
import { PageHeader } from './PageHeader';
import { ScriptNotice } from './ScriptNotice';

/** The app shell: a loading status, then the checkout or the data error. */
export function App() {
  const loading = AppActor.useSelector((state) => state.hasTag('loading'));
  const failed = AppActor.useSelector((state) => state.hasTag('error'));
  const paid = AppActor.useSelector((state) => state.hasTag('paid'));
  const codeFailed = AppActor.useSelector((state) => state.hasTag('code failed'));
  const paidReceipt = AppActor.useSelector((state) => state.context.receipt);
  const closedAs = AppActor.useSelector((state) => state.context.closedAs);
  const app = AppActor.useActorRef();
  const checkout = useCheckoutActor();
  const { config, views } = usePage();
  // A paid bill's receipt comes in a chunk of its own (most payers never see it): the state shows it once it is here.
  const PaidBill = views.paidBill();

  return (
    <div className="page">
      <PageHeader merchant={config.merchant} />
      <main className="card" id="main">
        {/* Paying needs the page's script: a page without it says so (a bill that takes no payment needs none). */}
        {!failed && !paid && <ScriptNotice />}
        {loading && (
          <>
            <div role="status" aria-live="polite" className="loading">
              <span className="spinner" aria-hidden="true" />
              {messages.app.loading}
            </div>
            {/* The outline of the first step holds its place, so nothing jumps when the bill arrives. */}
            <div className="skeleton" aria-hidden="true">
              <span className="skeleton-line skeleton-title" />
              <span className="skeleton-line skeleton-title skeleton-short" />
              <span className="skeleton-box" />
              <span className="skeleton-line skeleton-label" />
              <span className="skeleton-field" />
              <span className="skeleton-button" />
            </div>
          </>
        )}
        {failed &&
          (closedAs ? (
            // A bill cancelled or expired is told as it is, with whom to ask: no guess that it may be paid.
            <div role="alert" className="data-error">
              <h1>{closedTitle(closedAs)}</h1>
              <p>
                <SupportContacts merchant={config.merchant} />
              </p>
            </div>
          ) : (
            <div role="alert" className="data-error">
              <h1>{messages.app.dataErrorTitle}</h1>
              <p>{messages.app.dataError}</p>
            </div>
          ))}
        {codeFailed && <CodeFailed onRetry={() => app.send({ type: 'code.retry' })} />}
        {/* A paid bill's link: 'Счет оплачен' with its receipt. */}
        {paid && !loading && !codeFailed && PaidBill && <PaidBill receipt={paidReceipt} merchant={config.merchant} />}
        {checkout && <Checkout actor={checkout} />}
      </main>
    </div>
  );
}
