import type { Test } from '@jest/test-result';
import type TestSequencer from '@jest/test-sequencer';

// A plain script that jest loads as it is (jest.config.js's testSequencer): jest's own sequencer, its sort changed.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Sequencer = require('../support/sequencer') as typeof TestSequencer;

/**
 * The suite's order of files on a fresh machine, where jest has timed none (test/support/sequencer.js): the journeys
 * first, the largest first among them, then the rest by size. Jest left alone starts them all by size, so a journey of
 * a few lines (an accessibility walk) started last.
 */
const sizes: Record<string, number> = {
  '/repo/test/server/merchant/api.test.ts': 40_000,
  '/repo/test/views/ChoosePaymentType.test.tsx': 12_000,
  '/repo/test/e2e/payments.test.ts': 20_000,
  '/repo/test/e2e/a11y-mobile.test.ts': 150,
  '/repo/test/machines/offer.test.ts': 3_000,
};

// Jest's cache off: it has timed no file, as on a fresh machine.
const context = {
  config: { cache: false, cacheDirectory: '/nowhere', id: 'fresh', rootDir: '/repo' },
  hasteFS: { getSize: (file: string) => sizes[file] },
};
const testsOf = (files: string[]) => files.map((file) => ({ path: file, context }) as unknown as Test);

test('on a fresh machine, the journeys start first, each group largest first', async () => {
  const sequencer = new Sequencer({ contexts: [], globalConfig: {} } as never);
  const order = (await sequencer.sort(testsOf(Object.keys(sizes)))).map((test) => test.path.replace('/repo/', ''));
  expect(order).toEqual([
    'test/e2e/payments.test.ts',
    'test/e2e/a11y-mobile.test.ts',
    'test/server/merchant/api.test.ts',
    'test/views/ChoosePaymentType.test.tsx',
    'test/machines/offer.test.ts',
  ]);
});
