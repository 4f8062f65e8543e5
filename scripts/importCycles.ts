/**
 * `npm run cycles [folders…]`: the import cycles among the TypeScript files of the given folders (default: src, server,
 * scripts, bench). A cycle makes a module's meaning depend on load order and ties its parts into one; none is allowed.
 * Every static `import` and `export … from` between the folders' own files counts, `import type` too (a reader follows
 * it the same way); a dynamic `import()` is a chunk loaded later, not a cycle. test/scripts/importCycles.test.ts holds
 * all four to none.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const repoRoot = path.resolve(__dirname, '..');

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The file a relative specifier names, as the bundler and tsx resolve it; null for a package or a non-TS file. */
function resolve(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')];
  return candidates.find((file) => /\.tsx?$/.test(file) && existsSync(file) && statSync(file).isFile()) ?? null;
}

/** The files a file imports statically. */
export function importsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const specifiers = source.statements.flatMap((statement) =>
    (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
      ? [statement.moduleSpecifier.text]
      : [],
  );
  return specifiers.map((specifier) => resolve(file, specifier)).filter((target): target is string => target !== null);
}

/** Every cycle among the files of `folders` (Tarjan's strongly connected components), as repository-relative paths. */
export function importCycles(folders: string[], root = repoRoot): string[][] {
  const files = folders.flatMap((folder) => sourceFiles(path.resolve(root, folder)));
  const inScope = new Set(files);
  const edges = new Map(files.map((file) => [file, importsOf(file).filter((target) => inScope.has(target))]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file)!) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || edges.get(file)!.includes(file)) cycles.push(component.map((f) => path.relative(root, f)).sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

if (require.main === module) {
  const folders = process.argv.slice(2);
  const cycles = importCycles(folders.length > 0 ? folders : ['src', 'server', 'scripts', 'bench']);
  for (const cycle of cycles) process.stdout.write(`cycle: ${cycle.join(' ↔ ')}\n`);
  process.stdout.write(cycles.length === 0 ? 'no import cycle\n' : `${cycles.length} import cycle(s)\n`);
  process.exitCode = cycles.length === 0 ? 0 : 1;
}
