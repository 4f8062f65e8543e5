import fs from 'node:fs';
import zlib from 'node:zlib';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'];

export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });

const MOBILE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, locale: 'ru-RU' } as const;

/**
 * The bill's first step answers the payer: the page's script has taken the server's markup over (src/mount.ts marks the
 * mount point), so Continue works. Before it the step is on screen (the server's markup) but its button waits.
 */
const STEP_INTERACTIVE = '#root[data-shown]';
/** The amount to pay, the fact a payer checks first. */
const AMOUNT = '.payment-info-sum dd';

const gzipSize = (bytes: Buffer) => zlib.gzipSync(bytes, { level: 9 }).length;

export interface InitialJs {
  initialJsGzipBytes: number;
  files: { url: string; bytes: number; gzipBytes: number }[];
}

/**
 * The JavaScript the checkout loads before its first step is interactive: the served HTML's scripts, plus every
 * script whose fetch began (Resource Timing) before the page's script took the server's markup over. Chunks fetched
 * later, on demand or in the background after the first step, are not counted. Each file is gzipped here at level 9,
 * whatever the server sends.
 */
export async function initialJs(browser: Browser, base: string, path = '/pay/demo-anon'): Promise<InitialJs> {
  const html = await (await fetch(`${base}${path}`)).text();
  const urls = new Set<string>();
  // Its script tags and the scripts it preloads (run by its boot script: scripts/firstScripts.ts).
  for (const match of html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)=["']?([^"'\s>]+\.js)\b/g)) urls.add(new URL(match[1]!, base).href);

  const context = await browser.newContext({ ...MOBILE });
  await context.addInitScript((selector: string) => {
    const w = window as unknown as { __stepAt?: number };
    const observer = new MutationObserver(() => {
      if (w.__stepAt === undefined && document.querySelector(selector)) {
        w.__stepAt = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-shown'] });
  }, STEP_INTERACTIVE);
  const page = await context.newPage();
  await page.goto(`${base}${path}`);
  await page.locator(STEP_INTERACTIVE).first().waitFor({ state: 'attached', timeout: 20_000 });
  // Let anything started after the step (background fetches) show up, to be sure it is left out for its timing.
  await page.waitForTimeout(500);
  const early = await page.evaluate(() => {
    const stepAt = (window as unknown as { __stepAt: number }).__stepAt;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => /\.js(\?|$)/.test(new URL(entry.name).pathname) && entry.startTime < stepAt)
      .map((entry) => entry.name);
  });
  for (const url of early) urls.add(url);
  await context.close();

  const files = [];
  for (const url of urls) {
    const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
    files.push({ url: new URL(url).pathname, bytes: bytes.length, gzipBytes: gzipSize(bytes) });
  }
  return { initialJsGzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0), files };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Navigation → first contentful paint of `/pay/demo-anon` (the browser's own 'paint' entry), and navigation → the
 * first step interactive, each the median over `loads` cold loads (a fresh context each time, so nothing is cached).
 */
export async function firstContent(browser: Browser, base: string, loads = 10, path = '/pay/demo-anon'): Promise<{ firstContentMs: number; firstStepMs: number; samples: number[] }> {
  const fcp: number[] = [];
  const step: number[] = [];
  for (let i = 0; i < loads; i++) {
    const context = await browser.newContext({ ...MOBILE });
    const page = await context.newPage();
    await page.goto(`${base}${path}`);
    await page.locator(STEP_INTERACTIVE).first().waitFor({ state: 'attached', timeout: 20_000 });
    const timing = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      return { fcp: paint ? paint.startTime : NaN, step: performance.now() };
    });
    fcp.push(timing.fcp);
    step.push(timing.step);
    await context.close();
  }
  return { firstContentMs: Math.round(median(fcp)), firstStepMs: Math.round(median(step)), samples: fcp.map(Math.round) };
}

/** A slow phone network: 400 kbps each way, 400 ms round trip (Chromium's own throttling, applied per request). */
export const SLOW_NETWORK = { latencyMs: 400, kbps: 400 };

export interface SlowLoads {
  /** First contentful paint, median. */
  firstContentMs: number;
  /** The first frame with the amount on screen, median. */
  amountVisibleMs: number;
  /** The first step interactive (its Continue works), median. */
  interactiveMs: number;
  samples: { firstContentMs: number; amountVisibleMs: number; interactiveMs: number }[];
}

/**
 * `/pay/demo-anon` on a slow phone network (SLOW_NETWORK), cold, `loads` times: first contentful paint, the first frame
 * that shows the amount to pay (the animation frame after it entered the page, once rendering runs: a stylesheet still
 * loading holds frames back), and the first step interactive, each the median.
 */
export async function slowLoads(browser: Browser, base: string, loads = 5, path = '/pay/demo-anon'): Promise<SlowLoads> {
  const samples: SlowLoads['samples'] = [];
  for (let i = 0; i < loads; i++) {
    const context = await browser.newContext({ ...MOBILE });
    await context.addInitScript(
      ({ amount, interactive }: { amount: string; interactive: string }) => {
        const w = window as unknown as { __amountAt?: number; __interactiveAt?: number };
        const observer = new MutationObserver(() => {
          if (w.__amountAt === undefined && document.querySelector(amount)?.textContent) {
            w.__amountAt = -1;
            requestAnimationFrame(() => (w.__amountAt = performance.now()));
          }
          if (w.__interactiveAt === undefined && document.querySelector(interactive)) w.__interactiveAt = performance.now();
          if (w.__interactiveAt !== undefined && w.__amountAt !== undefined) observer.disconnect();
        });
        observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['data-shown'] });
      },
      { amount: AMOUNT, interactive: STEP_INTERACTIVE },
    );
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const bytesPerSecond = (SLOW_NETWORK.kbps * 1000) / 8;
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: SLOW_NETWORK.latencyMs, downloadThroughput: bytesPerSecond, uploadThroughput: bytesPerSecond });
    await page.goto(`${base}${path}`, { waitUntil: 'commit', timeout: 60_000 });
    await page.locator(STEP_INTERACTIVE).first().waitFor({ state: 'attached', timeout: 60_000 });
    await page.waitForFunction(() => ((window as unknown as { __amountAt?: number }).__amountAt ?? -1) >= 0, undefined, { timeout: 60_000 });
    const timing = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      const w = window as unknown as { __amountAt: number; __interactiveAt: number };
      return { fcp: paint ? paint.startTime : NaN, amount: w.__amountAt, interactive: w.__interactiveAt };
    });
    samples.push({ firstContentMs: Math.round(timing.fcp), amountVisibleMs: Math.round(Math.max(timing.amount, timing.fcp)), interactiveMs: Math.round(timing.interactive) });
    await context.close();
  }
  return {
    firstContentMs: Math.round(median(samples.map((sample) => sample.firstContentMs))),
    amountVisibleMs: Math.round(median(samples.map((sample) => sample.amountVisibleMs))),
    interactiveMs: Math.round(median(samples.map((sample) => sample.interactiveMs))),
    samples,
  };
}

export interface LighthouseFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  failedAudits: string[];
}

/**
 * Lighthouse 12, its default mobile form factor and simulated throttling, on Debian's Chromium started by
 * chrome-launcher. `localhost` rather than 127.0.0.1, as a payer's browser would treat a dev host as secure.
 */
export async function lighthouseRun(url: string, saveTo?: string): Promise<LighthouseFigures> {
  // Both packages are ES modules only; this file runs as CommonJS under tsx.
  const { launch } = await import('chrome-launcher');
  const lighthouse = (await import('lighthouse')).default;
  const chrome = await launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    logLevel: 'silent',
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    if (!result) throw new Error('Lighthouse returned nothing');
    if (saveTo) fs.writeFileSync(saveTo, JSON.stringify(result.lhr));
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const failedAudits = Object.values(categories)
      .flatMap((category) => category.auditRefs.filter((ref) => ref.weight > 0).map((ref) => audits[ref.id]!))
      .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative')
      .map((audit) => `${audit.id} (${audit.score})`);
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? NaN),
      tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? NaN),
      cls: Math.round((audits['cumulative-layout-shift']?.numericValue ?? NaN) * 1000) / 1000,
      failedAudits,
    };
  } finally {
    chrome.kill();
  }
}

/**
 * Lighthouse's figures over several runs, each the median of its own (performance, LCP, total blocking time …); the
 * audits below full score are those of the run whose score is the median.
 */
export function medianLighthouse(runs: LighthouseFigures[]): LighthouseFigures {
  const of = (figure: (run: LighthouseFigures) => number) => median(runs.map(figure));
  const middle = [...runs].sort((a, b) => a.performance - b.performance)[runs.length >> 1]!;
  return {
    performance: Math.round(of((run) => run.performance)),
    accessibility: Math.round(of((run) => run.accessibility)),
    bestPractices: Math.round(of((run) => run.bestPractices)),
    lcpMs: Math.round(of((run) => run.lcpMs)),
    tbtMs: Math.round(of((run) => run.tbtMs)),
    cls: of((run) => run.cls),
    failedAudits: middle.failedAudits,
  };
}
