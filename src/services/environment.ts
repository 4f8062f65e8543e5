import type { TabStorage } from './checkoutDraft';

/** What the page needs from the browser, injected so machines and tests never touch `window` directly. */
export interface BrowserEnvironment {
  /**
   * Desktop or phone (the fast payment's QR or bank list, the bank widget's overlay or page): a wide viewport with a
   * fine pointer is a desktop.
   */
  isDesktop: boolean;
  /** Desktop Safari needs the widget's helper tab. */
  isSafariDesktop: boolean;
  /** Which bank-app links the device opens: iOS a bank's URL scheme, Android an intent. */
  platform: Platform;
  /** This browser's local storage, or null where the browser refuses it (private modes, blocked site data). */
  storage: DeviceStorage | null;
  /** This tab's session storage (the code step's draft), or null where refused; absent in tests that keep nothing. */
  tabStorage?: TabStorage | null;
  navigate(url: string): void;
  reload(): void;
}

export function detectDesktop(win: Window): boolean {
  const wide = win.matchMedia?.('(min-width: 768px)').matches ?? win.innerWidth >= 768;
  const finePointer = win.matchMedia?.('(pointer: fine)').matches ?? true;
  return wide && finePointer;
}

export function detectSafariDesktop(win: Window, isDesktop: boolean): boolean {
  const ua = win.navigator.userAgent;
  return isDesktop && /Safari\//.test(ua) && !/(Chrome|Chromium|CriOS|Edg|OPR|Android)\//.test(ua);
}

export type Platform = 'ios' | 'android' | 'other';

export function detectPlatform(win: Window): Platform {
  const { userAgent, maxTouchPoints = 0 } = win.navigator;
  if (/Android/.test(userAgent)) return 'android';
  // iPadOS presents itself as a Mac: only its touch screen tells it apart.
  if (/iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1)) return 'ios';
  return 'other';
}

export type DeviceStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Reading `localStorage` itself throws where site data is blocked. */
export function deviceStorage(win: Window): DeviceStorage | null {
  try {
    return win.localStorage;
  } catch {
    return null;
  }
}

/** Reading `sessionStorage` itself throws where site data is blocked, as `localStorage` does. */
export function tabStorageOf(win: Window): TabStorage | null {
  try {
    return win.sessionStorage;
  } catch {
    return null;
  }
}

export function browserEnvironment(win: Window = window): BrowserEnvironment {
  const isDesktop = detectDesktop(win);
  return {
    isDesktop,
    isSafariDesktop: detectSafariDesktop(win, isDesktop),
    platform: detectPlatform(win),
    storage: deviceStorage(win),
    tabStorage: tabStorageOf(win),
    navigate: (url) => win.location.assign(url),
    reload: () => win.location.reload(),
  };
}

/** Analytics sink (the sign-in event); by default a push to window.dataLayer. */
export type Analytics = (event: Record<string, unknown>) => void;

export function dataLayerAnalytics(win: Window & { dataLayer?: unknown[] } = window): Analytics {
  return (event) => {
    win.dataLayer = win.dataLayer ?? [];
    win.dataLayer.push(event);
  };
}

/** Other request failures are logged to the console only, with the message and the response's error field. */
export function logError(error: unknown): void {
  const e = error as { message?: string; body?: { error?: unknown } } | null;
  console.error(e?.message ?? String(error), e?.body?.error ?? '');
}
