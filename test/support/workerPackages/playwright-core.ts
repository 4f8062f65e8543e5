// playwright-core as the jest worker loaded it (test/e2e/environment.ts, test/support/workerEnvironment.ts).
const playwright = globalThis.workerPackages?.['playwright-core'];
if (!playwright) throw new Error('playwright-core is handed to the journeys by their environment (test/e2e/environment.ts)');

module.exports = playwright;
