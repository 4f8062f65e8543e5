import { useId } from 'react';
import { messages } from '../services/messages';

const t = messages.account;

/**
 * The sign-in form's outline, as the first HTML shows it with the amount: its heading, its fields and links, and what
 * it waits for. Its fields take nothing yet and its links go nowhere (the form's code is not running): the form itself
 * takes its place once the page's script has it, at the same height, so nothing jumps.
 */
export function SignInShell() {
  const id = useId();
  return (
    <div className="sign-in sign-in-shell" aria-busy="true">
      <h2 className="section-title">{t.signInTitle}</h2>
      {/* Until the form's code runs, which may be after the page's script: kept while the page hydrates too. */}
      <p className="field-note script-waiting" role="status">
        {t.signInWaiting}
      </p>
      <div className="form">
        <div className="field">
          <label htmlFor={`${id}-phone`}>{t.phone}</label>
          <input id={`${id}-phone`} type="tel" placeholder="+7 (___) ___-__-__" disabled />
        </div>
        <div className="field">
          <label htmlFor={`${id}-password`}>{t.password}</label>
          <input id={`${id}-password`} type="password" disabled />
        </div>
        <div className="account-links">
          <span className="link">{t.forgot}</span>
          <span className="link">{t.register}</span>
        </div>
        <button type="button" className="button primary" disabled>
          {messages.app.continue}
        </button>
      </div>
    </div>
  );
}
