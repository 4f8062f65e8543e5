import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { createActor, type AnyActorRef, type InspectionEvent } from 'xstate';
import type { CheckoutActor } from '../../../src/machines/checkout';
import type { CheckoutDraft } from '../../../src/services/checkoutDraft';
import { createApi } from '../../../src/services/api';
import type { BrowserEnvironment } from '../../../src/services/environment';
import { createHttp } from '../../../src/services/http';
import { App } from '../../../src/views/App';
import { AppActor, PageContext } from '../../../src/views/appContext';
import { createBankWidget, type WidgetWindow } from '../../../src/widget';
import { defineAppActor } from '../../../src/actors/app';
import { resumeAfterReload } from '../../../src/machines/checkoutResume';
import { keepDraft } from '../../../src/keepDraft';
import { chunkViews, pageCode } from '../../../src/pageCode';
import { memoryTabStorage, testPageConfig } from '../../fixtures/fakes';

export const PAGE_ORIGIN = 'http://localhost';

export const pageConfig = testPageConfig;

// Captured before any test fakes the clock: settling the page waits on real I/O, never on fake time.
const realSetTimeout = globalThis.setTimeout;
const nextTurn = () => new Promise<void>((resolve) => realSetTimeout(resolve, 0));

/** Lets every request, answer and re-render in flight finish, without moving the (fake) clock. */
export async function settle(turns = 12) {
  for (let i = 0; i < turns; i++) await act(nextTurn);
}

/** Retries an on-screen assertion while the page settles (the clock stays still, so only I/O can change it). */
export async function eventually(assertion: () => void, turns = 200) {
  let last: unknown;
  for (let i = 0; i < turns; i++) {
    try {
      assertion();
      return;
    } catch (error) {
      last = error;
      await act(nextTurn);
    }
  }
  throw last;
}

/**
 * The network the page's chunks of code come over: a model event loses them (the first try and its retry), another
 * brings them back. Each test starts with it working.
 */
export const chunkNetwork = { lost: false };
afterEach(() => {
  chunkNetwork.lost = false;
});

/** Moves the fake clock, running the machines' named delays that fall due. */
export async function elapse(ms: number) {
  await act(async () => {
    await jest.advanceTimersByTimeAsync(ms);
  });
  await settle();
}

export interface PageOptions {
  /** The bill's link id, as /pay/<link> names it. */
  billLink: string;
  isDesktop?: boolean;
  isSafariDesktop?: boolean;
  /** A browser whose crypto fails, so the widget overlay cannot open. */
  brokenCrypto?: boolean;
  /** The address bar's step at load (a reload), and the declined order of 'Попробовать снова'. */
  resumePath?: string;
  retryOrder?: string;
  /** This tab's draft of the checkout (what was chosen and typed), as main.tsx reads it after a reload. */
  draft?: CheckoutDraft;
  inspect: (event: InspectionEvent) => void;
}

/**
 * Mounts the page as main.tsx does: defineAppActor() with the real api/http (msw behind them), the real bank widget
 * client on a recorded window, and a fake browser environment that records where the page sends the browser.
 */
export function renderPage({ billLink, isDesktop = true, isSafariDesktop = false, brokenCrypto = false, resumePath, retryOrder, draft, inspect }: PageOptions) {
  const navigations: string[] = [];
  const reloads: number[] = [];
  const opened: string[] = [];
  const helperTab = { postMessage: () => undefined } as unknown as WindowProxy;
  const listeners = new Set<(event: MessageEvent) => void>();
  const env: BrowserEnvironment = {
    isDesktop,
    isSafariDesktop,
    platform: 'other',
    storage: null,
    tabStorage: memoryTabStorage(),
    navigate: (url) => void navigations.push(url),
    reload: () => void reloads.push(Date.now()),
  };
  const href = `${PAGE_ORIGIN}/pay/${billLink}`;
  const widgetWindow: WidgetWindow = {
    document,
    location: { href, origin: PAGE_ORIGIN, assign: (url: string) => void navigations.push(url) },
    open: (url) => {
      opened.push(url);
      return helperTab;
    },
    addEventListener: (_type, listener) => void listeners.add(listener),
    removeEventListener: (_type, listener) => void listeners.delete(listener),
    crypto: brokenCrypto
      ? {
          getRandomValues: () => {
            throw new Error('crypto is unavailable');
          },
        }
      : globalThis.crypto,
  } as WidgetWindow;
  const errors: unknown[] = [];
  const config = pageConfig(billLink);
  const api = createApi({ http: createHttp({ csrfToken: () => 'csrf-model' }), config, managerId: () => null });
  // The page's chunks come as the page's do (jest's import() for webpack's), over the model's network.
  const code = pageCode((chunk, fetch) => (chunkNetwork.lost ? Promise.reject(new Error(`the ${chunk} chunk was lost`)) : fetch()));
  const logic = defineAppActor({
    code,
    api,
    env,
    analytics: () => undefined,
    log: (error) => void errors.push(error),
    doc: document,
    widget: createBankWidget(widgetWindow, config.environment),
    // As main.tsx does: resuming is wired in when the address bar named a step at load.
    ...(resumePath ? { resume: resumeAfterReload } : {}),
  });

  // As main.tsx does: the root actor runs before the first render; the page stops it when it is taken down.
  const app = createActor(logic, { input: { billLink, isDesktop, resumePath: resumePath ?? null, retryOrder: retryOrder ?? null, draft: draft ?? null }, inspect }).start();
  // As main.tsx does: this tab's draft kept from the checkout's snapshots.
  const stopKeeping = keepDraft(app, env.tabStorage, billLink);
  const checkout = () => app.getSnapshot().children.checkout as CheckoutActor | undefined;
  function Page() {
    useEffect(
      () => () => {
        stopKeeping();
        app.stop();
      },
      [],
    );
    return (
      <AppActor.Provider value={app}>
        <PageContext.Provider value={{ config, goBack: () => checkout()?.send({ type: 'nav.back' }), views: chunkViews(code) }}>
          <App />
        </PageContext.Provider>
      </AppActor.Provider>
    );
  }
  const view = render(<Page />);
  const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime, delay: null });

  /** A message from the widget's frame, as the browser delivers it (exact origin, the frame as source). */
  const fromWidget = async (data: unknown) => {
    const frame = document.querySelector<HTMLIFrameElement>('.bank-widget-overlay iframe');
    if (!frame?.contentWindow) throw new Error('no widget frame');
    frame.contentWindow.postMessage = () => undefined;
    const origin = new URL(frame.src).origin;
    await act(async () => {
      for (const listener of [...listeners]) listener({ data, origin, source: frame.contentWindow } as MessageEvent);
    });
    await settle();
  };

  return { ...view, screen, user, navigations, reloads, opened, errors, fromWidget, root: (): AnyActorRef => app };
}

export type Page = ReturnType<typeof renderPage>;
