import { messages } from '../services/messages';

/**
 * Code the page needed could not be loaded, even after its retry (a lost connection): the payer sees what happened and
 * tries again; the state that needed it loads it again on 'code.retry'.
 */
export function CodeFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className="data-error">
      <p>{messages.app.codeFailed}</p>
      <button type="button" className="button primary" onClick={onRetry}>
        {messages.app.retry}
      </button>
    </div>
  );
}
