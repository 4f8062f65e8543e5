import path from 'node:path';
import ts from 'typescript';

const machinesDir = `${path.sep}src${path.sep}machines${path.sep}`;

/**
 * A TypeScript transform for the production build: drops from src/machines/ what documents the statecharts and nothing
 * in the running page reads, which would otherwise weigh on the first step's JS (its budget must not grow):
 * - the `description` texts of states and machines (a property named `description` whose value is a plain string):
 *   the charts (docs/statecharts, scripts/charts.ts reads them from the source) show them; they were 2.2 KB (1 KB gzip);
 * - a state's route meta, `meta: route('…')`: the tests, the diagrams and the inspector read it, the page reads the
 *   step table (steps.ts) instead;
 * - setup()'s `types`, which only TypeScript reads.
 */
export const stripStatechartDescriptions: ts.TransformerFactory<ts.SourceFile> = (context) => (file) => {
  if (!path.normalize(file.fileName).includes(machinesDir)) return file;
  const visit = (node: ts.Node): ts.Node => {
    if (ts.isObjectLiteralExpression(node)) {
      const visited = ts.visitEachChild(node, visit, context);
      const argumentOfSetup = ts.isCallExpression(node.parent) && isCallOf(node.parent, 'setup');
      const kept = visited.properties.filter((property) => !isDescription(property) && !isRouteMeta(property) && !(argumentOfSetup && isNamed(property, 'types')));
      return kept.length === visited.properties.length ? visited : context.factory.updateObjectLiteralExpression(visited, kept);
    }
    return ts.visitEachChild(node, visit, context);
  };
  return ts.visitNode(file, visit) as ts.SourceFile;
};

const isCallOf = (call: ts.CallExpression, name: string) => ts.isIdentifier(call.expression) && call.expression.text === name;

function isNamed(property: ts.ObjectLiteralElementLike, name: string): property is ts.PropertyAssignment {
  return ts.isPropertyAssignment(property) && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) && property.name.text === name;
}

function isDescription(property: ts.ObjectLiteralElementLike) {
  return isNamed(property, 'description') && (ts.isStringLiteral(property.initializer) || ts.isNoSubstitutionTemplateLiteral(property.initializer));
}

function isRouteMeta(property: ts.ObjectLiteralElementLike) {
  return isNamed(property, 'meta') && ts.isCallExpression(property.initializer) && isCallOf(property.initializer, 'route');
}
