import fs from 'node:fs';
import path from 'node:path';

/**
 * Fastify's validator compiler, its serializer (fast-json-stringify) and ajv-formats all use Ajv 8. package.json names
 * Ajv 8 itself so that npm installs it once, at the top of node_modules, where all three find it. Otherwise eslint's
 * Ajv 6 takes the top and each of them gets a copy of Ajv 8 of its own: the server would load Ajv three times at its
 * start (twice the time and heap of once), and jest evaluate it three times in every server and journey file.
 */
const lock = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string }>;
};

test('one Ajv 8 in the lock file, at the top of node_modules, for every package that uses it', () => {
  const ajv8 = Object.entries(lock.packages)
    .filter(([place, { version }]) => /(^|\/)node_modules\/ajv$/.test(place) && version?.startsWith('8.'))
    .map(([place]) => place);
  expect(ajv8).toEqual(['node_modules/ajv']);
});
