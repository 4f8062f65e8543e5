import type { ReactNode } from 'react';
import { useHydrated } from './useHydrated';

/**
 * A form's main button that shows at once that it is working: a spinner and aria-busy while `busy`, and no second
 * press meanwhile (on a slow network a press that changed nothing for seconds was pressed again). In the server's
 * markup it is busy until the page's script has hydrated it: a press before then would be lost (the form posts nowhere).
 */
export function SubmitButton({ busy, disabled = false, children }: { busy: boolean; disabled?: boolean; children: ReactNode }) {
  const waiting = busy || !useHydrated();
  return (
    <button type="submit" className="button primary" disabled={waiting || disabled} aria-busy={waiting || undefined}>
      {waiting && <span className="spinner spinner-button" aria-hidden="true" />}
      {children}
    </button>
  );
}
