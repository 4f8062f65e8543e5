import path from 'node:path';
import webpack from 'webpack';

/** Packages that serve development alone: the Stately inspector, which `?inspect` attaches in a development build. */
const DEVELOPMENT_ONLY_PACKAGES = ['@statelyai/inspect'];

/** Whether a module's file belongs to a development-only package. */
const isDevelopmentOnly = (file: string) =>
  DEVELOPMENT_ONLY_PACKAGES.some((name) => file.includes(`${path.sep}node_modules${path.sep}${name.split('/').join(path.sep)}${path.sep}`));

/**
 * Fails a production build that would carry a development-only package: the code that attaches it is behind
 * `__DEV__`, a constant that leaves a production build without the import at all, and this keeps it so. It looks at
 * every module the build reads, before any is concatenated or minified, so no renaming can hide one.
 */
export class NoDevelopmentTools {
  apply(compiler: webpack.Compiler) {
    compiler.hooks.thisCompilation.tap('NoDevelopmentTools', (compilation) => {
      compilation.hooks.finishModules.tap('NoDevelopmentTools', (modules) => {
        for (const module of modules) {
          const file = module instanceof webpack.NormalModule ? module.resource : '';
          if (!isDevelopmentOnly(file)) continue;
          const error = new webpack.WebpackError(`A production build must not carry development tools: ${path.relative(compiler.context, file)}`);
          compilation.errors.push(error);
        }
      });
    });
  }
}
