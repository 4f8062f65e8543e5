/**
 * What the first scripts weigh, module by module: every byte of a built script is laid to the source its source map
 * names (webpack's hidden maps: BUNDLE_MAPS=1, which the bench's build sets), grouped by package (node_modules) or by
 * file of src/, and each group's share of the file's gzip size given as its gzip weight (gzip packs a file as a whole,
 * so a module's own gzip size alone would not add up to the file's).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export interface ModuleWeight {
  /** A package (`react-dom`), a file of the page (`src/machines/checkout.ts`), or webpack's own runtime and glue. */
  module: string;
  /** Minified bytes in the file. */
  bytes: number;
  /** Its share of the file's gzip size (level 9). */
  gzipBytes: number;
}

export interface FileWeights {
  file: string;
  gzipBytes: number;
  modules: ModuleWeight[];
}

/** The module a source of the map belongs to: its package, its path under the repository, or webpack's runtime. */
function moduleOf(source: string | null): string {
  if (!source) return 'webpack (module wrappers and exports)';
  const local = source.replace(/^webpack:\/\/[^/]*\//, '').replace(/^\.\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(local)?.[1];
  if (pkg) return pkg;
  if (local.startsWith('webpack/')) return 'webpack (runtime)';
  return local === '.' || local === '' ? 'webpack (module wrappers and exports)' : local;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A source map's `mappings`, decoded: per generated line, each segment's column and its source's index (or null). */
export function decodeMappings(mappings: string): { column: number; source: number | null }[][] {
  let source = 0;
  return mappings.split(';').map((line) => {
    let column = 0;
    return line
      .split(',')
      .filter(Boolean)
      .map((segment) => {
        // Base64 VLQ: five bits of value per digit, the sixth says more digits follow; the lowest bit of a value is its sign.
        const fields: number[] = [];
        let value = 0;
        let shift = 0;
        for (const char of segment) {
          const digit = BASE64.indexOf(char);
          value += (digit & 31) << shift;
          if (digit & 32) shift += 5;
          else {
            fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
            value = 0;
            shift = 0;
          }
        }
        column += fields[0]!;
        if (fields.length > 1) source += fields[1]!;
        return { column, source: fields.length > 1 ? source : null };
      });
  });
}

/** The weights of one built script with its `.map` beside it. */
export function weightsOf(distDir: string, file: string): FileWeights {
  const code = fs.readFileSync(path.join(distDir, file), 'utf8');
  const map = JSON.parse(fs.readFileSync(path.join(distDir, `${file}.map`), 'utf8')) as { sources: string[]; mappings: string };
  const lines = code.split('\n');
  const segments = decodeMappings(map.mappings);
  const bytes = new Map<string, number>();
  const add = (module: string, text: string) => bytes.set(module, (bytes.get(module) ?? 0) + Buffer.byteLength(text));
  lines.forEach((line, i) => {
    const mapped = segments[i] ?? [];
    add(moduleOf(null), line.slice(0, mapped[0]?.column ?? line.length));
    mapped.forEach((segment, j) =>
      add(moduleOf(segment.source === null ? null : (map.sources[segment.source] ?? null)), line.slice(segment.column, mapped[j + 1]?.column ?? line.length)),
    );
  });
  const total = Buffer.byteLength(code);
  const gzipBytes = zlib.gzipSync(code, { level: 9 }).length;
  const modules = [...bytes]
    .filter(([, size]) => size > 0)
    .map(([module, size]) => ({ module, bytes: size, gzipBytes: Math.round((size / total) * gzipBytes) }))
    .sort((a, b) => b.bytes - a.bytes);
  return { file, gzipBytes, modules };
}

/** The scripts' weights, for files under /assets/ as the bench names them (`/assets/main.1234abcd.js`). */
export function firstScriptWeights(distDir: string, urls: string[]): FileWeights[] {
  return urls
    .map((url) => path.basename(url))
    .filter((file) => fs.existsSync(path.join(distDir, `${file}.map`)))
    .map((file) => weightsOf(distDir, file));
}
