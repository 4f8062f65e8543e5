import path from 'node:path';
import ts from 'typescript';

const machinesDir = `${path.sep}src${path.sep}machines${path.sep}`;

/**
 * A TypeScript transform for the production build: drops the statecharts' `description` texts (a state's or a
 * machine's `description: '…'` in src/machines/) from the page's code. They document the charts (docs/statecharts,
 * scripts/charts.ts reads them from the source) and nothing in the running page reads them, yet they were 2.2 KB (1 KB
 * gzip) of the first step's JS (issue 17's budget). Only a property named `description` whose value is a plain string is
 * dropped, and only in src/machines/.
 */
export const stripStatechartDescriptions: ts.TransformerFactory<ts.SourceFile> = (context) => (file) => {
  if (!path.normalize(file.fileName).includes(machinesDir)) return file;
  const visit = (node: ts.Node): ts.Node => {
    if (ts.isObjectLiteralExpression(node)) {
      const visited = ts.visitEachChild(node, visit, context);
      const kept = visited.properties.filter((property) => !isDescription(property));
      return kept.length === visited.properties.length ? visited : context.factory.updateObjectLiteralExpression(visited, kept);
    }
    return ts.visitEachChild(node, visit, context);
  };
  return ts.visitNode(file, visit) as ts.SourceFile;
};

function isDescription(property: ts.ObjectLiteralElementLike) {
  return (
    ts.isPropertyAssignment(property) &&
    (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) &&
    property.name.text === 'description' &&
    (ts.isStringLiteral(property.initializer) || ts.isNoSubstitutionTemplateLiteral(property.initializer))
  );
}
