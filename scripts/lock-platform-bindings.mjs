// Records in package-lock.json the other platforms' optional native bindings of unrs-resolver (used by jest's
// resolver). This machine's registry serves only the linux ones, so npm cannot write their entries itself, yet
// `npm ci` refuses a lock that lacks them. Each entry carries its os/cpu, so npm skips it here without fetching it.
// Run after any change to the lock: `node scripts/lock-platform-bindings.mjs`.
import fs from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const match = /^@unrs\/resolver-binding-([a-z0-9]+)-([a-z0-9]+)(?:-(gnu|musl|gnueabihf|musleabihf|eabi|msvc))?$/.exec(name);
    if (!match) continue;
    const key = `node_modules/${name}`;
    if (lock.packages[key]) continue;
    const [, os, cpu, abi] = match;
    lock.packages[key] = {
      version,
      cpu: [cpu],
      dev: entry.dev === true ? true : undefined,
      ...(abi === 'gnu' || abi === 'gnueabihf' ? { libc: ['glibc'] } : abi === 'musl' || abi === 'musleabihf' ? { libc: ['musl'] } : {}),
      license: 'MIT',
      optional: true,
      os: [os],
    };
    added += 1;
  }
  void path;
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} platform binding entries`);
