import type { WorkerPackages } from '../workerEnvironment';

/** A package as the jest worker loaded it and the test file's environment handed it on (test/support/workerEnvironment.ts). */
export function handedOn<Name extends keyof WorkerPackages>(name: Name): NonNullable<WorkerPackages[Name]> {
  const found = globalThis.workerPackages?.[name];
  if (!found) throw new Error(`${name} is handed to the test files by their environment (test/support/workerEnvironment.ts)`);
  return found as NonNullable<WorkerPackages[Name]>;
}
