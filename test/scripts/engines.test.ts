import fs from 'node:fs';
import path from 'node:path';

/**
 * Which Node the project needs (README): 20.19 or newer. Every installed package must accept it, so `npm ci` warns of
 * no engine and nothing breaks on the Node 20 every machine here has (fastify's light-my-request pulled
 * cookie@2, which asks for Node 22 and is ESM-only; package.json's `overrides` keep it on cookie 1, which has the
 * same stringifySetCookie).
 */
const OLDEST_NODE = '20.19.0';

/** A version's numbers; a missing or wildcard part ('x', '*') is undefined. */
const partsOf = (version: string) => version.replace(/^v/, '').split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : undefined));

const compare = (a: (number | undefined)[], b: (number | undefined)[]) => {
  for (let i = 0; i < 3; i += 1) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
};

/**
 * Whether a Node version satisfies an `engines.node` range, in the forms npm packages use (checked against every
 * range in the lock file): alternatives joined by '||', each a list of '>=X', '^X', '*' or a bare 'X', 'X.x', 'X.Y'.
 */
function satisfies(version: string, range: string): boolean {
  const v = partsOf(version);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/>=\s+/g, '>=')
      .split(/\s+/)
      .every((comparator) => {
        if (comparator === '*' || comparator === '') return true;
        if (comparator.startsWith('>=')) return compare(v, partsOf(comparator.slice(2))) >= 0;
        if (comparator.startsWith('^')) {
          const floor = partsOf(comparator.slice(1));
          return v[0] === floor[0] && compare(v, floor) >= 0;
        }
        if (/^v?\d/.test(comparator)) return partsOf(comparator).every((part, i) => part === undefined || part === v[i]);
        throw new Error(`an engines range this check does not read: ${range}`);
      }),
  );
}

test('the range reader', () => {
  expect(satisfies('20.20.2', '^20.19.0 || ^22.13.0 || >=24')).toBe(true);
  expect(satisfies('20.18.0', '^20.19.0 || ^22.13.0 || >=24')).toBe(false);
  expect(satisfies('20.19.0', '>=22')).toBe(false);
  expect(satisfies('20.19.0', '>= 0.8')).toBe(true);
  expect(satisfies('20.19.0', '20.x')).toBe(true);
  expect(satisfies('20.19.0', '14 >=14.17')).toBe(false);
  expect(satisfies('20.19.0', '*')).toBe(true);
});

const lock = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

test(`every installed package runs on Node ${OLDEST_NODE} and on this machine's Node`, () => {
  const refusing = Object.entries(lock.packages)
    .map(([name, entry]) => ({ name, node: Array.isArray(entry.engines) ? undefined : entry.engines?.node }))
    .filter(({ node }) => node && !(satisfies(OLDEST_NODE, node!) && satisfies(process.versions.node, node!)))
    .map(({ name, node }) => `${name}: node ${node}`);
  expect(refusing).toEqual([]);
});

test('package.json says so', () => {
  const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { engines: { node: string } };
  expect(manifest.engines.node).toBe(`>=${OLDEST_NODE}`);
});
