/**
 * The server suites' test environment: Node's, and the packages a jest worker loads once for every test file it runs,
 * outside jest's module registry (jest.config.js maps their names to test/support/workerPackages/). Jest evaluates
 * every module again for each test file, and the JIT compiles it again: for these packages that cost each file about
 * a tenth of a second or more (kysely; for the journeys, playwright-core about half a second), while nothing of them is
 * mocked or spied on, and they keep no state of their own between files. Their objects come from the worker's realm,
 * not the test file's: an error they throw is not an `instanceof Error` of the test's realm.
 */
import NodeEnvironment from 'jest-environment-node';
import * as kysely from 'kysely';

export interface WorkerPackages {
  kysely: typeof kysely;
  /** The journeys' only (test/e2e/environment.ts). */
  'playwright-core'?: typeof import('playwright-core');
}

declare global {
  var workerPackages: WorkerPackages | undefined;
}

export default class WorkerEnvironment extends NodeEnvironment {
  /** What the test files get for the packages' names. */
  protected packages(): WorkerPackages {
    return { kysely };
  }

  override async setup(): Promise<void> {
    await super.setup();
    (this.global as unknown as typeof globalThis).workerPackages = this.packages();
  }
}
