import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The journeys' environment (test/e2e/environment.ts) fails a journey on its pages' first uncaught error, and lists the
 * errors they logged with any failure, whichever realm the failure's error comes from (the test's, or Playwright's,
 * which the worker loads once). Run on the fixture journeys in a jest of their own, as a journey file would be.
 */

const root = path.resolve(__dirname, '..', '..');

// The journeys' own project, whose transform (SWC) the fixture jest uses. jest.config.js is CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const journeys = (require('../../jest.config.js') as { projects: { displayName: string; transform: unknown }[] }).projects.find((p) => p.displayName === 'e2e')!;

interface AssertionResult {
  title: string;
  status: string;
  failureMessages: string[];
}

async function runFixtureJourneys(): Promise<AssertionResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journey-environment-'));
  const output = path.join(dir, 'results.json');
  const config = {
    rootDir: root,
    roots: ['<rootDir>/test/fixtures'],
    testMatch: ['<rootDir>/test/fixtures/journeyEnvironment.fixture.ts'],
    testEnvironment: '<rootDir>/test/e2e/environment.ts',
    transform: journeys.transform,
    cacheDirectory: path.join(dir, 'cache'),
  };
  try {
    // Some of its journeys fail on purpose, so jest exits with 1: the results are read from its report.
    await promisify(execFile)(process.execPath, [require.resolve('jest/bin/jest'), '--config', JSON.stringify(config), '--ci', '--json', '--outputFile', output], {
      cwd: root,
    }).catch(() => undefined);
    const report = JSON.parse(fs.readFileSync(output, 'utf8')) as { testResults: { assertionResults: AssertionResult[] }[] };
    return report.testResults[0]!.assertionResults;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('a page error ends the journey with it; a failure lists what the pages logged, whoever threw it', async () => {
  const results = await runFixtureJourneys();
  const failure = (title: string) => {
    const result = results.find((r) => r.title === title)!;
    expect(result.status).toBe('failed');
    return result.failureMessages.join('\n');
  };

  expect(failure('a page throws while the journey waits for something else')).toContain(
    'the page http://checkout.test/pay/1 threw: Cannot read properties of undefined',
  );

  // Once each, with the page that logged it: jest prints the error's stack, which holds the message.
  const check = failure('a check fails after the page logged an error');
  expect(check).toContain('The pages logged meanwhile:\nRefused to connect (on http://checkout.test/pay/2)');
  expect(check.split('The pages logged meanwhile').length).toBe(2);

  const playwright = failure('Playwright gives up after the page logged an error');
  expect(playwright).toContain('locator.waitFor: Timeout 200ms exceeded.');
  expect(playwright).toContain('The pages logged meanwhile:\nUncaught TypeError (on http://checkout.test/pay/3)');

  expect(results.find((r) => r.title === 'a journey whose pages logged no error')!.status).toBe('passed');
}, 60_000);
