/**
 * The browser journeys' test environment: the server suites' (test/support/workerEnvironment.ts), and every journey
 * fails on an uncaught error in its pages. The harness (test/e2e/harness.ts) reports each page's uncaught errors and
 * console errors to the journey running (through the global `checkoutJourney`); a page error rejects the journey's own
 * promise at once, with the page's error as the test's failure. Nothing is thrown from a browser's event listener,
 * where no test would see it. Console errors do not fail a journey by themselves (the page logs the server's refusals,
 * which journeys provoke on purpose): a failing journey's message lists them, to read beside its failure.
 */
import type { Circus } from '@jest/types';
import WorkerEnvironment, { workerRequire, type WorkerPackages } from '../support/workerEnvironment';
import { rewriteMessage } from './errorMessage';

/** What the harness reports to the journey running. */
export interface JourneyWatch {
  pageError(error: Error, url: string): void;
  consoleError(text: string, url: string): void;
}

declare global {
  var checkoutJourney: JourneyWatch | undefined;
}

export default class JourneyEnvironment extends WorkerEnvironment {
  // Playwright too is loaded once per worker (about half a second of each journey file's modules).
  protected override packages(): WorkerPackages {
    return { ...super.packages(), 'playwright-core': workerRequire('playwright-core') };
  }

  async handleTestEvent(event: Circus.Event): Promise<void> {
    if (event.name !== 'test_fn_start') return;
    const { test } = event;
    const journey = test.fn as () => unknown;
    const global = this.global as unknown as typeof globalThis;
    // The test's own function, run inside a promise that the first page error rejects.
    test.fn = function watchedJourney(this: unknown) {
      const consoleErrors: string[] = [];
      let failWith: (error: Error) => void = () => undefined;
      const failed = new Promise<never>((_, reject) => {
        failWith = reject;
      });
      global.checkoutJourney = {
        pageError: (error, url) => failWith(Object.assign(new Error(`the page ${url} threw: ${error.message}`), { stack: `${error.stack ?? error.message}\n(on ${url})` })),
        consoleError: (text, url) => void consoleErrors.push(`${text} (on ${url})`),
      };
      return Promise.race([Promise.resolve().then(() => journey.call(this)), failed])
        .catch((error: unknown) => {
          if (consoleErrors.length > 0) rewriteMessage(error, (message) => `${message}\n\nThe pages logged meanwhile:\n${consoleErrors.join('\n')}`);
          throw error;
        })
        .finally(() => {
          global.checkoutJourney = undefined;
        });
    };
  }
}
