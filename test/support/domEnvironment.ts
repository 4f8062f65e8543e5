/**
 * The page's tests' environment: jsdom with Node's fetch and streams (jest-fixed-jsdom), and aria-query, which
 * testing-library's role queries read, loaded once per jest worker and handed to each test file (jest.config.js maps
 * its name to test/support/workerPackages/aria-query.ts). It is data alone (the ARIA roles and their elements, about a
 * hundred modules), which no test changes: evaluated again in each file it cost about 150 ms of the file's modules,
 * the most of any package.
 */
import type JSDOMEnvironment from 'jest-environment-jsdom';
import './compileCache';
import { workerRequire } from './workerEnvironment';

// jest-fixed-jsdom has no types of its own: it is jest-environment-jsdom's environment with those globals put back.
const FixedJSDOMEnvironment = workerRequire('jest-fixed-jsdom') as typeof JSDOMEnvironment;

export default class DomEnvironment extends FixedJSDOMEnvironment {
  override async setup(): Promise<void> {
    await super.setup();
    (this.global as unknown as typeof globalThis).workerPackages = { 'aria-query': workerRequire('aria-query') };
  }
}
