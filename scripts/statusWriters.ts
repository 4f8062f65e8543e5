/**
 * `npm run status-writers`: every place in the server's sources that writes a payment attempt's, a refund's or a bill's
 * state outside the lifecycle (server/lifecycle/, whose writer is the one way a status changes). None is allowed;
 * test/scripts/statusWriters.test.ts holds the server to none.
 *
 * A write is found by its type, not its text: every Kysely `updateTable(…).set(x)`, `insertInto(…).values(x)` and
 * `doUpdateSet(x)` on payment_attempts, refunds or bills (or on a table named by a variable) whose `x` has a `state`,
 * `status` or `closed_as` column, however `x` was built (a literal, a spread, an `Updateable<…>` passed in); and any SQL
 * text that updates or inserts into those tables. The migrations (server/migrations/) write history, not states.
 */
import path from 'node:path';
import ts from 'typescript';

const repoRoot = path.resolve(__dirname, '..');

/** The tables whose rows live by a chart, and the columns that hold (or spell) their state. */
export const LIFECYCLE_TABLES = ['payment_attempts', 'refunds', 'bills'];
export const STATE_COLUMNS = ['state', 'status', 'closed_as'];

/** Where a state may be written: the lifecycle, and the migrations that made the columns. */
const allowed = (file: string) => /[\\/]server[\\/](lifecycle|migrations)[\\/]/.test(file);

export interface StatusWrite {
  /** Repository-relative. */
  file: string;
  line: number;
  /** The written code, on one line. */
  code: string;
}

const WRITE_METHODS: Record<string, string> = { set: 'updateTable', values: 'insertInto', doUpdateSet: 'insertInto' };
const SQL_WRITE = new RegExp(`\\b(UPDATE|INSERT\\s+INTO)\\s+"?(${LIFECYCLE_TABLES.join('|')})\\b`, 'i');

/** The table a Kysely chain below `node` names (`'bills'`), `null` for one named by a variable, undefined for none. */
function tableOf(node: ts.Expression, method: string): string | null | undefined {
  let current: ts.Expression = node;
  for (;;) {
    if (ts.isCallExpression(current) && ts.isPropertyAccessExpression(current.expression)) {
      if (current.expression.name.text === method) {
        const [table] = current.arguments;
        if (!table) return undefined;
        return ts.isStringLiteralLike(table) ? table.text : null;
      }
      current = current.expression.expression;
    } else if (ts.isPropertyAccessExpression(current) || ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isNonNullExpression(current)) {
      current = current.expression;
    } else if (ts.isAwaitExpression(current)) {
      current = current.expression;
    } else {
      return undefined;
    }
  }
}

/** The column names a written value's type has: an object's, a callback's answer's, an array's elements'. */
function columnsOf(checker: ts.TypeChecker, type: ts.Type, seen = new Set<ts.Type>()): string[] {
  if (seen.has(type)) return [];
  seen.add(type);
  if (type.isUnionOrIntersection()) return type.types.flatMap((part) => columnsOf(checker, part, seen));
  if (checker.isArrayType(type)) return checker.getTypeArguments(type as ts.TypeReference).flatMap((element) => columnsOf(checker, element, seen));
  const answers = type.getCallSignatures().map((signature) => signature.getReturnType());
  return [...type.getProperties().map((property) => property.name), ...answers.flatMap((answer) => columnsOf(checker, answer, seen))];
}

/**
 * Every write of a lifecycle table's state columns in `files` outside the lifecycle. `extra` adds files that exist only
 * in memory (the check's own test plants one).
 */
export function statusWrites(files: string[], extra: Record<string, string> = {}): StatusWrite[] {
  const configPath = path.join(repoRoot, 'tsconfig.json');
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile(configPath, ts.sys.readFile).config, ts.sys, repoRoot);
  const options = { ...config.options, noEmit: true };
  const host = ts.createCompilerHost(options);
  const planted = new Map(Object.entries(extra).map(([file, text]) => [path.resolve(repoRoot, file), text]));
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (file, language, ...rest) => {
    const text = planted.get(path.resolve(file));
    return text !== undefined ? ts.createSourceFile(file, text, language) : getSourceFile.call(host, file, language, ...rest);
  };
  host.fileExists = (file) => planted.has(path.resolve(file)) || fileExists.call(host, file);
  host.readFile = (file) => planted.get(path.resolve(file)) ?? readFile.call(host, file);
  const roots = [...files, ...planted.keys()];
  const program = ts.createProgram(roots, options, host);
  const checker = program.getTypeChecker();
  const found: StatusWrite[] = [];

  for (const file of roots) {
    if (allowed(file)) continue;
    const source = program.getSourceFile(file);
    if (!source) continue;
    const report = (node: ts.Node) => {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push({ file: path.relative(repoRoot, file), line: line + 1, code: node.getText(source).replace(/\s+/g, ' ').slice(0, 160) });
    };
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.arguments[0]) {
        const method = WRITE_METHODS[node.expression.name.text];
        const table = method ? tableOf(node.expression.expression, method) : undefined;
        if (table !== undefined && (table === null || LIFECYCLE_TABLES.includes(table))) {
          const columns = columnsOf(checker, checker.getTypeAtLocation(node.arguments[0]));
          if (columns.some((column) => STATE_COLUMNS.includes(column))) report(node);
        }
      }
      if ((ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node) || ts.isStringLiteral(node)) && SQL_WRITE.test(node.getText(source))) report(node);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The server's TypeScript files. */
export function serverFiles(root = repoRoot): string[] {
  return ts.sys.readDirectory(path.join(root, 'server'), ['.ts'], ['**/*.d.ts'], undefined);
}

if (require.main === module) {
  const writes = statusWrites(serverFiles());
  for (const write of writes) console.log(`${write.file}:${write.line}  ${write.code}`);
  console.log(writes.length === 0 ? 'No status is written outside server/lifecycle/.' : `${writes.length} writes of a status outside server/lifecycle/.`);
  process.exit(writes.length === 0 ? 0 : 1);
}
