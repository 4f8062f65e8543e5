// kysely as the jest worker loaded it (test/support/workerEnvironment.ts).
if (!globalThis.workerPackages) throw new Error('kysely is handed to the test files by their environment (test/support/workerEnvironment.ts)');

module.exports = globalThis.workerPackages.kysely;
