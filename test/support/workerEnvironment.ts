/**
 * The server suites' test environment: Node's, and the packages a jest worker loads once for every test file it runs,
 * outside jest's module registry (jest.config.js maps their names to test/support/workerPackages/). Jest evaluates
 * every module again for each test file, and the JIT compiles it again: kysely cost each server file about 70 ms of
 * CPU, and playwright-core each journey file about half a second. Nothing of them is mocked or spied on, and they
 * keep no state of their own between files. Their objects come from the worker's realm, not the test file's: an error
 * they throw is not an `instanceof Error` of the test's realm.
 */
import { createRequire } from 'node:module';
import NodeEnvironment from 'jest-environment-node';
import './compileCache';

/** Node's own require (this module is loaded outside jest's registry): each package's exports exactly as it made them. */
export const workerRequire = createRequire(__filename);

/** By the names the test files require them by (each the only copy of its package in node_modules). */
export interface WorkerPackages {
  /** The server suites' and the journeys'. */
  kysely?: typeof import('kysely');
  /** The journeys' only (test/e2e/environment.ts). */
  'playwright-core'?: typeof import('playwright-core');
  /** The page's tests' only (test/support/domEnvironment.ts). */
  'aria-query'?: typeof import('aria-query');
}

declare global {
  var workerPackages: WorkerPackages | undefined;
}

export default class WorkerEnvironment extends NodeEnvironment {
  /** What the test files get for the packages' names. */
  protected packages(): WorkerPackages {
    return { kysely: workerRequire('kysely') };
  }

  override async setup(): Promise<void> {
    await super.setup();
    (this.global as unknown as typeof globalThis).workerPackages = this.packages();
  }
}
