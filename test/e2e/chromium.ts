/** Debian's Chromium as the journeys start it (never a downloaded browser), alone or shared by a run's test files. */
import fs from 'node:fs';

/**
 * Debian's headless shell of Chromium (package chromium-headless-shell): the same build and the same Blink as the
 * browser, without the browser's windows, tabs and profile around each page, which headless journeys never show. The
 * journeys' Chromium work fell by a third with it: the whole `e2e` project from 578 s to 408 s, the browser process's
 * own CPU from 261 s to 94 s (docs/testing.md). Without the package, Debian's browser itself.
 */
const DEBIAN_HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? (fs.existsSync(DEBIAN_HEADLESS_SHELL) ? DEBIAN_HEADLESS_SHELL : DEBIAN_CHROMIUM);

/**
 * The features Playwright itself turns off (playwright-core's Chromium switches, as of its version in package-lock.json;
 * test/e2e/chromium.test.ts fails when they change). Chromium reads only the last `--disable-features`, so ours repeats
 * them.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AimEnabled',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsFirstBalancedModeAutoEnable',
  'HttpsUpgrades',
  'LensOverlay',
  'MediaRouter',
  'NetworkTimeServiceQuerying',
  'OptimizationHints',
  'PaintHolding',
  'PreconnectToSearch',
  'TcpPortRandomizationWin',
  'ThirdPartyStoragePartitioning',
  'msEdgeUpdateLaunchServicesPreferredVersion',
  'msForceBrowserSignIn',
];

/**
 * Chromium's address bar popup, a page of its own (chrome://omnibox-popup) that each new window, so each browser
 * context, loads in a renderer of its own though nothing headless ever shows it: about half of what a new context
 * costs (20 contexts: 42 s against 21 s on this machine). The headless shell has no address bar; the browser needs
 * this.
 */
const NO_ADDRESS_BAR_POPUP = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/** The flags that work here as root, headless, with no network but loopback. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...NO_ADDRESS_BAR_POPUP].join(',')}`,
];

/** Where the run's shared Chromium listens (test/e2e/globalSetup.ts), when the journeys run under jest. */
export const SHARED_CHROMIUM_VARIABLE = 'CHECKOUT_CHROMIUM_WS';

/** How to start Chromium headless here. */
export function chromiumOptions() {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `Browser journeys need Debian's Chromium at ${CHROMIUM}. Install it with ` +
        '`apt-get install -y chromium-headless-shell chromium` (.ci/run does this), or point CHROMIUM_PATH at a Chromium binary.',
    );
  }
  return { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true };
}
