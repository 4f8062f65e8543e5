import type { ResumeAfterReload } from '../machines/checkoutResume';
import type { Api } from '../services/api';
import type { Analytics, BrowserEnvironment } from '../services/environment';
import type { BankWidgetClient } from '../widget';

/**
 * What the page's effects are made of, made once by the composition root (main.tsx) and handed to the actor factories
 * of this folder, each of which takes only the part it needs. Tests hand the same factories msw behind the API and a
 * fake environment, so the page they drive is wired exactly as in production.
 */
export interface Dependencies {
  api: Api;
  env: BrowserEnvironment;
  analytics: Analytics;
  log: (error: unknown) => void;
  /** The document whose visibility pauses status polling and whose title shows the data error. */
  doc: Document;
  /** The bank-app pay widget client (src/widget), loaded on demand in the page; without it bank-app pay fails loudly. */
  widget?: BankWidgetClient;
  /** Resuming the step the address bar named at load (machines/checkoutResume.ts, loaded only then); none: the main route. */
  resume?: ResumeAfterReload;
}

/** A machine's 'log error' with the page's logger. */
export const logWith =
  (log: Dependencies['log']) =>
  (_: unknown, { error }: { error: unknown }) =>
    log(error);
