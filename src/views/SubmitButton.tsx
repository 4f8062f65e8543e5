import type { ReactNode } from 'react';

/**
 * A form's main button that shows at once that it is working: a spinner and aria-busy while `busy`, and no second
 * press meanwhile (on a slow network a press that changed nothing for seconds was pressed again).
 */
export function SubmitButton({ busy, disabled = false, children }: { busy: boolean; disabled?: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="button primary" disabled={busy || disabled} aria-busy={busy || undefined}>
      {busy && <span className="spinner spinner-button" aria-hidden="true" />}
      {children}
    </button>
  );
}
