/** Debian's Chromium as the journeys start it (never a downloaded browser), alone or shared by a run's test files. */
import fs from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
 * costs (20 contexts: 42 s against 21 s on this machine).
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
      `Browser journeys need Debian's Chromium at ${CHROMIUM}. Install it with \`apt-get install -y chromium\` ` +
        '(.ci/run does this), or point CHROMIUM_PATH at a Chromium binary.',
    );
  }
  return { executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true };
}
