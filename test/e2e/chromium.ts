/** Debian's Chromium as the journeys start it (never a downloaded browser), alone or shared by a run's test files. */
import fs from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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
