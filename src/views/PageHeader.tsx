import { messages } from '../services/messages';

/** The page's header on every page (checkout and result): who takes the money and that the line is secure. */
export function PageHeader() {
  return (
    <header className="page-header">
      <span className="brand" aria-hidden="true">
        <svg viewBox="0 0 24 24" width="22" height="22" focusable="false">
          <rect x="2" y="5" width="20" height="14" rx="3" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M2 10h20" stroke="currentColor" strokeWidth="2" />
        </svg>
      </span>
      <span className="brand-name">{messages.app.brand}</span>
      <span className="secure-note">{messages.app.secure}</span>
    </header>
  );
}
