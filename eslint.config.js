// @ts-check
const js = require('@eslint/js');
const globals = require('globals');
const tseslint = require('typescript-eslint');

/** Imports flow one way: views → machines → services; these patterns guard it without a plugin. */
const layer = (message, ...folders) => ({
  'no-restricted-imports': [
    'error',
    { patterns: folders.map((folder) => ({ group: [`**/${folder}`, `**/${folder}/**`], message })) },
  ],
});

module.exports = tseslint.config(
  { ignores: ['dist/', '.tmp/', 'coverage/', 'data/', 'docs/', 'node_modules/', '**/*.min.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      // `_`-prefixed names are deliberate: stub signatures and unused destructured parts.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Non-null assertions mark places where the machine's state guarantees the value (e.g. the bill in content).
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Type-aware rules that find real bugs (a forgotten await on a payment call) and are cheap with the project service.
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: __dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // Fastify's reply is thenable, so a one-line callback returning it reads as a promise where void is expected.
    files: ['server/**/*.ts'],
    rules: { '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false, properties: false } }] },
  },
  {
    // CommonJS configs and the page's plain scripts.
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // The payer's page never reaches into the merchant's desk (src/desk/, a bundle of its own): its scripts must not grow
  // by a byte of it. Each layer's rule names it too, as a file takes one list of restricted imports.
  { files: ['src/**'], ignores: ['src/desk/**'], rules: layer("The payer's page imports nothing of the desk.", 'desk') },
  { files: ['src/machines/**'], rules: layer('Machines never import views (views → machines → services); the page never imports the desk.', 'views', 'desk') },
  {
    // One useSelector, on the page and on the desk: views/useSelector.ts (@xstate/react's would bring its selector and
    // its shim along, and a second hook of the same name).
    files: ['src/views/**', 'src/desk/views/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@xstate/react', importNames: ['useSelector'], message: 'The page reads actors with one useSelector: ./useSelector (src/views/useSelector.ts).' }] },
      ],
    },
  },
  {
    files: ['src/services/**'],
    rules: layer('Services never import machines or views (views → machines → services); the page never imports the desk.', 'machines', 'views', 'desk'),
  },
  { files: ['src/desk/machines/**'], rules: layer('Machines never import views (views → machines → services).', 'views') },
  { files: ['src/desk/services/**'], rules: layer('Services never import machines or views (views → machines → services).', 'machines', 'views') },
  {
    // The rules the page shows and the server enforces (pricing, payment kinds, code purposes, the phone, the bill data;
    // the desk's roles): pure modules both sides import, so they stand alone: nothing outside their folder, no package,
    // no browser.
    files: ['src/services/rules/**', 'src/desk/services/rules/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!\\./[^/]+$)', message: 'src/services/rules/ imports nothing outside itself: the server imports these modules too.' }] },
      ],
      'no-restricted-globals': ['error', ...['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'fetch'].map((name) => ({ name, message: 'src/services/rules/ runs on the server too: no browser.' }))],
    },
  },
  // The server by domain (docs/architecture.md): the store is the engine and knows no domain; billing depends on no
  // other domain (payments import billing, one way); a bill's status rule imports nothing at all.
  {
    files: ['server/store/**'],
    rules: layer(
      'The store is the engine only: it imports no domain.',
      'accounts',
      'acquirer',
      'billing',
      'desk',
      'loyalty',
      'mail',
      'merchant',
      'migrations',
      'operations',
      'payments',
      'platform',
      'profile',
      'sandbox',
      'sbpBanks',
    ),
  },
  {
    // Operations (request ids, health, metrics, shared limits, workers, the graceful stop) sit under every domain and
    // the platform: they know the store only, and the domains call them.
    files: ['server/operations/**'],
    rules: layer(
      'Operations import the store only: the domains and the platform call them, never the other way.',
      'accounts',
      'acquirer',
      'billing',
      'desk',
      'loyalty',
      'mail',
      'merchant',
      'migrations',
      'payments',
      'platform',
      'profile',
      'sandbox',
      'sbpBanks',
    ),
  },
  {
    // The money's charts and their writer sit under the domains that move them: they know the store and operations only.
    files: ['server/lifecycle/**'],
    rules: layer(
      'The lifecycle imports the store and operations only: the domains move its charts, never the other way.',
      'accounts',
      'acquirer',
      'billing',
      'loyalty',
      'merchant',
      'migrations',
      'payments',
      'platform',
      'sandbox',
      'sbpBanks',
    ),
  },
  {
    files: ['server/billing/**'],
    rules: layer('Billing depends on no other domain: payments import billing, never the other way.', 'accounts', 'acquirer', 'desk', 'loyalty', 'mail', 'merchant', 'payments', 'profile', 'sandbox'),
  },
  {
    // The merchant's profile (name, support, logo, offers, webhook URL) is read by payments, the merchant's webhooks and the
    // desk, and reads nothing of theirs.
    files: ['server/profile/**'],
    rules: layer('The profile depends on no other domain: the others read it.', 'accounts', 'acquirer', 'billing', 'desk', 'loyalty', 'mail', 'merchant', 'payments', 'sandbox', 'sbpBanks'),
  },
  {
    // E-mail is an outside party's port and adapter: it knows no domain.
    files: ['server/mail/**'],
    rules: layer('The mail port knows no domain: the desk sends through it.', 'accounts', 'acquirer', 'billing', 'desk', 'loyalty', 'merchant', 'payments', 'profile', 'sandbox', 'sbpBanks'),
  },
  {
    // Nothing of the server's domains reaches into the desk: it sits on top of them (one path: it calls their code).
    files: ['server/accounts/**', 'server/acquirer/**', 'server/billing/**', 'server/loyalty/**', 'server/merchant/**', 'server/payments/**', 'server/platform/**', 'server/sbpBanks/**', 'server/smsProvider/**'],
    ignores: ['server/billing/**'],
    rules: layer('The domains never import the desk: the desk calls them.', 'desk'),
  },
  // No cookie plugin is registered (its hooks ran on every request), yet its types still declare its members on every
  // request and reply: read there, they are undefined. A route reads and sets a cookie with server/platform/cookies.ts.
  {
    files: ['server/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^(cookies|cookie|setCookie|clearCookie|signCookie|unsignCookie)$/][object.name=/^(request|reply|req|res)$/]',
          message: 'No cookie plugin is registered: read and set cookies with server/platform/cookies.ts (cookieOf, setCookie).',
        },
      ],
    },
  },
  {
    files: ['server/billing/status.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '.*', message: "A bill's status rule imports nothing: everything else depends on it." }] }] },
  },
);
