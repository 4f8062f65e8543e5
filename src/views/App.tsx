import { AppActor, useCheckoutActor } from './appContext';
import { Checkout } from './Checkout';
import { messages } from '../services/messages';

/** The app shell (SPEC §2): a loading status, then the checkout or the data error. */
export function App() {
  const loading = AppActor.useSelector((state) => state.hasTag('loading'));
  const failed = AppActor.useSelector((state) => state.hasTag('error'));
  const checkout = useCheckoutActor();

  return (
    <div className="page">
      <header className="page-header">
        <span className="brand" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="22" height="22" focusable="false">
            <rect x="2" y="5" width="20" height="14" rx="3" fill="none" stroke="currentColor" strokeWidth="2" />
            <path d="M2 10h20" stroke="currentColor" strokeWidth="2" />
          </svg>
        </span>
        <span className="brand-name">Оплата онлайн</span>
        <span className="secure-note">Защищенное соединение</span>
      </header>
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
        {checkout && <Checkout actor={checkout} />}
      </main>
    </div>
  );
}
