/**
 * playwright-core as the jest worker loaded it, once, rather than once per journey file through jest's module registry
 * (jest.config.js maps the package here for the journeys; their environment, test/e2e/environment.ts, loads it
 * outside the registry and hands it on). Its bundle took about half a second to evaluate in each journey file, and
 * nothing of it is mocked or spied on. Its objects come from the worker's own realm, not the test file's: an error it
 * throws is not an `instanceof Error` of the test's realm, so the journeys tell errors apart by their shape.
 */
if (!globalThis.checkoutPlaywright) throw new Error('playwright-core is handed to the journeys by their environment (test/e2e/environment.ts)');

module.exports = globalThis.checkoutPlaywright;
