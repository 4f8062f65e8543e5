// @ts-check
const fs = require('node:fs');

/**
 * SWC transforms each file alone (types are stripped, not checked: type checking is `npm run typecheck`'s job), an order
 * of magnitude faster than the TypeScript compiler; it hoists `jest.mock` calls above the imports as babel-jest does.
 * JavaScript goes through the same transform (ES modules of the packages below become CommonJS).
 */
const swc = (parser) => [
  '@swc/jest',
  {
    jsc: { parser, target: 'es2022', transform: { react: { runtime: 'automatic' } } },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

// Packages that ship only ES modules must go through the transform too (and any .mjs file, as msw 2's dependencies ship).
const esmPackages = ['ky', 'until-async', 'cookie'].join('|');

const common = {
  transform: {
    '^.+\\.ts$': swc({ syntax: 'typescript' }),
    '^.+\\.tsx$': swc({ syntax: 'typescript', tsx: true }),
    '^.+\\.m?jsx?$': swc({ syntax: 'ecmascript', jsx: true }),
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages})/).*(?<!\\.mjs)$`],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'json'],
};

/**
 * The server suites and the browser journeys run on SQLite and again on PostgreSQL when PostgreSQL is here: a cluster
 * named by TEST_DATABASE_URL, or Debian's binaries to start a throw-away one (test/support/postgresSetup.ts).
 */
const postgresAvailable =
  Boolean(process.env.TEST_DATABASE_URL) ||
  (fs.existsSync('/usr/lib/postgresql') && fs.readdirSync('/usr/lib/postgresql').some((v) => fs.existsSync(`/usr/lib/postgresql/${v}/bin/initdb`)));

if (!postgresAvailable && !process.env.JEST_WORKER_ID && !process.env.CHECKOUT_POSTGRES_NOTICE) {
  process.env.CHECKOUT_POSTGRES_NOTICE = '1';
  process.stderr.write(
    'PostgreSQL is not available (no TEST_DATABASE_URL, no /usr/lib/postgresql/*/bin/initdb): the server and journey suites ' +
      'run on SQLite only; the PostgreSQL half is skipped. `apt-get install -y postgresql` (as .ci/run does) runs it.\n',
  );
}

/**
 * Server files whose checks do not depend on the engine, run on SQLite only: pure functions that never open a store,
 * and the parts of the server that read or write nothing the engine could change (CSRF, security headers and CSP, the
 * bank list, page rendering, metrics, request ids and logs, the sandbox's fakes and its switch). Whatever else they
 * touch in the database (sessions, the demo seed, the rate limits' counters) has suites of its own on both engines.
 */
const engineIndependentServerFiles = [
  'accounts/passwordCost',
  'billing/billInput',
  'billing/items',
  'billing/status',
  'payments/capturedItems',
  'payments/chargedItems',
  'payments/wireMoney',
  'acquirer/orderBundle',
  'fiscalConfig',
  'smsProvider/callback',
  'smsProvider/config',
  'platform/qrPng',
  'platform/schemaCompilers',
  'platform/pages',
  'security',
  'sbpBanks/sbpBanks',
  'operations/metrics',
  'operations/requestIds',
  'operations/requestLogs',
  'sandbox/home',
  'sandbox/production',
  'sandbox/rbsBundle',
  'sandbox/sandbox',
  'sandbox/smsru',
];

/** The same suite on PostgreSQL: every test server on a database of its own on one test cluster. */
const onPostgres = (project) => ({
  ...project,
  displayName: `${project.displayName} · postgres`,
  globals: { CHECKOUT_TEST_ENGINE: 'postgres' },
  globalSetup: '<rootDir>/test/support/postgresSetup.ts',
  globalTeardown: '<rootDir>/test/support/postgresTeardown.ts',
});

/**
 * Packages the server suites and the journeys get from their jest worker, loaded once for all its files, rather than
 * evaluated again in each (test/support/workerEnvironment.ts, whose environment hands them on).
 */
const workerPackages = { '^kysely$': '<rootDir>/test/support/workerPackages/kysely.ts' };

const server = {
  ...common,
  displayName: 'server',
  testEnvironment: '<rootDir>/test/support/workerEnvironment.ts',
  moduleNameMapper: workerPackages,
  testMatch: ['<rootDir>/test/server/**/*.test.ts'],
  // The run's migrated, seeded template, which most tests' databases are copies of (test/support/testDatabase.ts).
  globalSetup: '<rootDir>/test/support/sqliteSetup.ts',
  globalTeardown: '<rootDir>/test/support/sqliteTeardown.ts',
};

/**
 * The browser journeys: one Chromium for the run (test/e2e/globalSetup.ts), and an environment that fails a journey on
 * its pages' errors (test/e2e/environment.ts). The PostgreSQL smoke file runs in `e2e · postgres` only.
 */
const e2e = {
  ...common,
  displayName: 'e2e',
  testEnvironment: '<rootDir>/test/e2e/environment.ts',
  testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/test/e2e/postgres-smoke\\.test\\.ts$'],
  moduleNameMapper: { ...workerPackages, '^playwright-core$': '<rootDir>/test/support/workerPackages/playwright-core.ts' },
  globalSetup: '<rootDir>/test/e2e/globalSetup.ts',
  globalTeardown: '<rootDir>/test/e2e/globalTeardown.ts',
};

/** @type {import('jest').Config} */
module.exports = {
  // Jest reads the time-out only here, not per project. Browser journeys start a server and Chromium and walk
  // several pages on a shared 2-core machine; unit tests finish far below it.
  testTimeout: 60_000,
  // Two workers on a 2-core machine: browser journeys spend much of their time waiting on Chromium and the server.
  maxWorkers: 2,
  // Every run ends with each project's total and the ten slowest files (all of them: `npm run test:times`).
  reporters: ['default', '<rootDir>/test/support/timesReporter.js'],
  // On a fresh machine, the journeys before the other files jest has no time for (test/support/sequencer.js).
  testSequencer: '<rootDir>/test/support/sequencer.js',
  projects: [
    {
      ...common,
      displayName: 'unit',
      // jsdom hides Node's fetch, Request, TextEncoder and streams; msw 2 needs them (jest-fixed-jsdom puts them back).
      // The environment hands each file aria-query, loaded once per worker (test/support/domEnvironment.ts).
      testEnvironment: '<rootDir>/test/support/domEnvironment.ts',
      testEnvironmentOptions: { customExportConditions: [''] },
      testMatch: ['<rootDir>/test/{machines,services,views,widget,model}/**/*.test.ts?(x)'],
      setupFilesAfterEnv: ['<rootDir>/test/setup-dom.ts'],
      moduleNameMapper: { '\\.css$': '<rootDir>/test/fixtures/style-stub.ts', '^aria-query$': '<rootDir>/test/support/workerPackages/aria-query.ts' },
    },
    { ...server, testMatch: [...server.testMatch, '<rootDir>/test/scripts/**/*.test.ts'] },
    e2e,
    // On PostgreSQL: the server suites, and of the payer's journeys those where the engine changes what the payer sees
    // (test/e2e/postgres-smoke.test.ts) or that the product must show on both engines (a large bill paid in parts,
    // test/e2e/parts.test.ts; the merchant's desk, whose search, figures and exports are queries of their own,
    // test/e2e/desk.test.ts); the rest of what they do to the store, the server suites check on both engines.
    ...(postgresAvailable
      ? [
          {
            ...onPostgres(server),
            testPathIgnorePatterns: ['/node_modules/', ...engineIndependentServerFiles.map((file) => `/test/server/${file}\\.test\\.ts$`)],
          },
          {
            ...onPostgres(e2e),
            testMatch: ['<rootDir>/test/e2e/postgres-smoke.test.ts', '<rootDir>/test/e2e/parts.test.ts', '<rootDir>/test/e2e/desk.test.ts'],
            testPathIgnorePatterns: ['/node_modules/'],
          },
        ]
      : []),
  ],
};
