import type { BankWidgetClient, WidgetReport, WidgetRequest, WidgetWindow } from './client';
import type { WidgetEnvironment } from './hosts';
import { returnUrls, type PaymentIds } from './returnUrls';

const RETRY_MS = 1500;

export interface BankWidgetOnDemand extends BankWidgetClient {
  /** Starts loading the widget's code ahead of need (after the first step is painted). */
  preload(): void;
}

/**
 * The bank-app pay widget client (client.ts), whose code loads only when it is needed or preloaded: most payers never
 * use bank-app pay, and the first step renders sooner without it (initialJsGzipBytes in docs/benchmarks.md). Once
 * loaded every call goes straight to it; before that, a call waits for the code. The return URL needs none of it.
 * `onFailure` hears of code that could not be loaded for a redirect or the helper tab (an overlay reports it itself).
 */
export function bankWidgetOnDemand(win: WidgetWindow, environment: WidgetEnvironment, onFailure: (error: unknown) => void = () => undefined): BankWidgetOnDemand {
  let client: BankWidgetClient | null = null;
  let loading: Promise<BankWidgetClient> | null = null;
  const importClient = () => import('./client');
  // One retry after a pause, as for the steps' code (lazyStep.tsx): a phone's network drops a request now and then.
  const attempt = () => importClient().catch(() => new Promise<void>((resolve) => setTimeout(resolve, RETRY_MS)).then(importClient));
  const load = () =>
    (loading ??= attempt().then(
      ({ createBankWidget }) => (client = createBankWidget(win, environment)),
      (error: unknown) => {
        // A later call may try again.
        loading = null;
        throw error;
      },
    ));
  const whenLoaded = (use: (loaded: BankWidgetClient) => void) => (client ? use(client) : void load().then(use, onFailure));

  return {
    preload: () => void load().catch(() => undefined),
    returnUrl(ids: PaymentIds, outcome: 'success' | 'fail') {
      const urls = returnUrls(win.location.origin, ids);
      return outcome === 'success' ? urls.successUrl : urls.failUrl;
    },
    redirect: (request: WidgetRequest) => whenLoaded((loaded) => loaded.redirect(request)),
    openHelperTab: (code: string) => whenLoaded((loaded) => loaded.openHelperTab(code)),
    open(request: WidgetRequest, report: (event: WidgetReport) => void) {
      if (client) return client.open(request, report);
      let stopped = false;
      let close: (() => void) | undefined;
      load().then(
        (loaded) => {
          if (!stopped) close = loaded.open(request, report);
        },
        (error: unknown) => {
          if (!stopped) report({ type: 'widget.error', error });
        },
      );
      return () => {
        stopped = true;
        close?.();
      };
    },
  };
}
