import type { ResumeAfterReload } from '../machines/checkoutResume';
import type { PageCode } from '../pageCode';
import type { Api } from '../services/api';
import type { Analytics, BrowserEnvironment } from '../services/environment';
import type { FirstAnswers } from '../services/initialData';
import type { BankWidgetClient } from '../widget';
import type { WidgetEnvironment } from '../widget/hosts';

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
  /** The bank-app pay widget client (src/widget); without it (and without `widgetEnvironment`) bank-app pay fails loudly. */
  widget?: BankWidgetClient;
  /**
   * The page's widget environment: the page makes its widget client with paying's code (chunks/paying.ts), whose own
   * code loads on demand in turn, rather than with the first scripts.
   */
  widgetEnvironment?: WidgetEnvironment;
  /** Resuming the step the address bar named at load (machines/checkoutResume.ts, loaded only then); none: the main route. */
  resume?: ResumeAfterReload;
  /** The answers the server put into the page (services/initialData.ts): the first load of each uses them, not the network. */
  first?: FirstAnswers;
  /** The page's chunks of code (pageCode.ts): the machines load them as their states need them, the views read them. */
  code: PageCode;
}

/** A machine's 'log error' with the page's logger. */
export const logWith =
  (log: Dependencies['log']) =>
  (_: unknown, { error }: { error: unknown }) =>
    log(error);

/** An account flow's 'log error': what went wrong; a refusal with no error of its own is nothing to log. */
export const logErrorOf =
  ({ log }: Pick<Dependencies, 'log'>) =>
  (_: unknown, { error }: { error: unknown }) => {
    if (error) log(error);
  };
