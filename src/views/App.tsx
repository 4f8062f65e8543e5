import { Suspense } from 'react';
import { AppActor, useCheckoutActor, usePage } from './appContext';
import { Checkout } from './Checkout';
import { PaidBill } from './lazyViews';
import { messages } from '../services/messages';
import { PageHeader } from './PageHeader';

/** The app shell: a loading status, then the checkout or the data error. */
export function App() {
  const loading = AppActor.useSelector((state) => state.hasTag('loading'));
  const failed = AppActor.useSelector((state) => state.hasTag('error'));
  const paid = AppActor.useSelector((state) => state.hasTag('paid'));
  const paidReceipt = AppActor.useSelector((state) => state.context.receipt);
  const checkout = useCheckoutActor();
  const { config } = usePage();

  return (
    <div className="page">
      <PageHeader merchant={config.merchant} />
      <main className="card" id="main">
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
        {failed && (
          <div role="alert" className="data-error">
            <h1>{messages.app.dataErrorTitle}</h1>
            <p>{messages.app.dataError}</p>
          </div>
        )}
        {/* A paid bill's link: 'Счет оплачен' with its receipt (its own chunk: most payers never see it). */}
        {paid && (
          <Suspense fallback={null}>
            <PaidBill receipt={paidReceipt} merchant={config.merchant} />
          </Suspense>
        )}
        {checkout && <Checkout actor={checkout} />}
      </main>
    </div>
  );
}
