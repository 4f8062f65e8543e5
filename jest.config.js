// @ts-check
/** ts-jest with isolatedModules: type checking is `npm run typecheck`'s job, so tests stay fast. */
const tsJest = [
  'ts-jest',
  { tsconfig: { jsx: 'react-jsx', module: 'commonjs', moduleResolution: 'node', esModuleInterop: true, allowJs: true, isolatedModules: true } },
];

// Packages that ship only ES modules must go through the transform too (and any .mjs file, as msw 2's dependencies ship).
const esmPackages = ['ky', 'until-async', 'cookie'].join('|');

const common = {
  transform: { '^.+\\.(t|j)sx?$': tsJest, '^.+\\.mjs$': tsJest },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages})/).*(?<!\\.mjs)$`],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'json'],
};

/** @type {import('jest').Config} */
module.exports = {
  // Jest reads the time-out only here, not per project. Browser journeys start a server and Chromium and walk
  // several pages on a shared 2-core machine; unit tests finish far below it.
  testTimeout: 60_000,
  // Two workers on a 2-core machine: browser journeys spend much of their time waiting on Chromium and the server.
  maxWorkers: 2,
  projects: [
    {
      ...common,
      displayName: 'unit',
      // jsdom hides Node's fetch, Request, TextEncoder and streams; msw 2 needs them (DESIGN §2).
      testEnvironment: 'jest-fixed-jsdom',
      testEnvironmentOptions: { customExportConditions: [''] },
      testMatch: ['<rootDir>/test/{machines,services,views,widget,model}/**/*.test.ts?(x)'],
      setupFilesAfterEnv: ['<rootDir>/test/setup-dom.ts'],
      moduleNameMapper: { '\\.css$': '<rootDir>/test/fixtures/style-stub.ts' },
    },
    {
      ...common,
      displayName: 'server',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/{server,scripts}/**/*.test.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
    },
  ],
};
