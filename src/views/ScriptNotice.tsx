import { messages } from '../services/messages';

/**
 * Paying takes the page's script, so a page without it says so rather than spin: with JavaScript off (`noscript`), and
 * when the script failed to load (public/boot.js shows the second line, `#script-failed`, and stops the spinners).
 * The amount and the merchant's support stay on screen around it: they are the server's markup.
 */
export function ScriptNotice() {
  return (
    <>
      <noscript>
        <p className="script-notice">{messages.app.needsScript}</p>
      </noscript>
      <p className="script-notice" id="script-failed" role="alert" hidden>
        {messages.app.scriptFailed}
      </p>
    </>
  );
}
