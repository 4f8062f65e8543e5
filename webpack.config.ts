import fs from 'node:fs';
import path from 'node:path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import MinimizerPlugin from 'minimizer-webpack-plugin';
import webpack from 'webpack';
import { NoDevelopmentTools } from './scripts/developmentTools';
import { FirstScripts } from './scripts/firstScripts';
import { PrecompressPlugin } from './scripts/precompress';
import { stripStatechartDescriptions } from './scripts/stripDescriptions';

// DIST_DIR lets parallel builds (tests, benchmarks) write to their own folder instead of racing on dist/.
const outDir = path.resolve(__dirname, process.env.DIST_DIR ?? 'dist');
/** The server's rendering of the page (src/serverRender.tsx), beside the page's assets but never served with them. */
export const SERVER_RENDER_DIR = 'server';
/** The merchant's desk (src/desk/): a build of its own in a folder of its own, served under /desk/assets/. */
export const DESK_DIR = 'desk';

type Mode = 'production' | 'development';

/** What both builds share: the same sources, compiled the same way, so the server renders what the page hydrates. */
function common(production: boolean): Pick<webpack.Configuration, 'mode' | 'resolve' | 'performance' | 'stats'> & { tsRule: webpack.RuleSetRule; devPlugins: webpack.WebpackPluginInstance[] } {
  return {
    mode: production ? 'production' : 'development',
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      // @xstate/react imports the shim of useSyncExternalStore for React before 18; React 19 has it built in, and the
      // package's own non-shim entries use React's (about 0.7 KB gzip off the first load).
      // Resolved to files: as a bare request the second alias still let the shim in (0.1 KB gzip).
      alias: {
        'use-sync-external-store/shim/with-selector$': require.resolve('use-sync-external-store/with-selector'),
        'use-sync-external-store/shim$': require.resolve('use-sync-external-store'),
      },
    },
    tsRule: {
      test: /\.tsx?$/,
      loader: 'ts-loader',
      exclude: /node_modules/,
      // Production drops the statecharts' description texts (scripts/stripDescriptions.ts).
      options: { transpileOnly: true, ...(production ? { getCustomTransformers: () => ({ before: [stripStatechartDescriptions] }) } : {}) },
    },
    // Lets development-only code (the inspector) be dropped from a production build, the same in every build; a
    // production build that still reads any of it fails.
    devPlugins: [new webpack.DefinePlugin({ __DEV__: JSON.stringify(!production) }), ...(production ? [new NoDevelopmentTools()] : [])],
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

/**
 * The browser's scripts (the page's, the desk's) are minified by SWC rather than webpack's default Terser, with the same
 * two compress passes: a few hundred bytes smaller gzipped, in half the time (Terser took most of a production build's
 * CPU).
 */
const browserMinimizer = () => [new MinimizerPlugin({ minify: MinimizerPlugin.swcMinify, minimizerOptions: { compress: { passes: 2 }, mangle: true } })];

/** The page: its scripts and styles under /assets/, and the HTML template the server fills per request. */
function page(production: boolean): webpack.Configuration {
  const { tsRule, devPlugins, ...shared } = common(production);
  return {
    ...shared,
    name: 'page',
    entry: { main: './src/main.tsx' },
    // The page's own code is ES2022 already (tsconfig's target, ky's private fields): webpack's runtime may be too.
    target: ['web', 'es2022'],
    output: {
      path: outDir,
      publicPath: '/assets/',
      filename: production ? '[name].[contenthash:8].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
      // The server's rendering and the desk are the other builds' output in this folder: cleaning must leave them.
      clean: { keep: new RegExp(`^(${SERVER_RENDER_DIR}|${DESK_DIR})[\\\\/]`) },
      // ES modules: chunks load with import() rather than webpack's script-tag loader (0.2 KB gzip off the first scripts).
      module: true,
    },
    experiments: { outputModule: true },
    // No eval-based maps: the server's CSP (no 'unsafe-eval') would stop a development build from running. BUNDLE_MAPS
    // adds maps no script names, for bench/weights.ts to weigh each module of the production bundle.
    devtool: production ? (process.env.BUNDLE_MAPS ? 'hidden-source-map' : false) : 'cheap-module-source-map',
    module: {
      rules: [
        tsRule,
        // The page's modules do nothing when imported but define things (the entry alone runs the page): an import whose
        // exports go unused adds nothing, so a module that imports one export of another does not bring its neighbours
        // (actors/payment.ts: the offer's actor on the first step, paying's on demand).
        { test: /[\\/]src[\\/].+\.tsx?$/, exclude: /[\\/]src[\\/]main\.tsx$/, sideEffects: false },
        { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
        { test: /\.svg$/, type: 'asset/inline' },
      ],
    },
    plugins: [
      new MiniCssExtractPlugin({ filename: production ? '[name].[contenthash:8].css' : '[name].css' }),
      // The server fills the placeholders of this template per request (CSRF token, config, initial data, mount point).
      new HtmlWebpackPlugin({
        // As it is, not compiled as a lodash template (that compilation's `with` has no place in an ES-module build).
        templateContent: fs.readFileSync(path.resolve(__dirname, 'public', 'index.html'), 'utf8'),
        filename: 'index.html',
        inject: 'body',
        scriptLoading: 'module',
        // Not minified: the template is tiny and its placeholders must keep their attribute quotes.
        minify: false,
      }),
      // Its scripts run once the server's markup is painted (public/boot.js).
      new FirstScripts(),
      ...devPlugins,
      // Compressed twins of the assets for the server to send (budgets in docs/benchmarks.md).
      ...(production ? [new PrecompressPlugin()] : []),
    ],
    // The page's first scripts are one file, React and XState in it: the boot script runs it after the first paint, and
    // Lighthouse's simulation sees that (scripts/firstScripts.ts) only for a script whose run is a long task, which a
    // script of React's modules alone is not (it only defines them).
    ...(production
      ? {
          optimization: {
            minimizer: browserMinimizer(),
            // Short export names in place of hashed ones: every chunk refers to the first scripts' exports by them (0.3 KB
            // gzip off the first scripts; the framework's chunk, whose modules export nothing by name, stays as it is).
            mangleExports: 'size' as const,
            splitChunks: {
              cacheGroups: {
                // The later steps' copy, fetched once with the first of them (Checkout preloads the way-to-pay step) rather
                // than repeated in every step's chunk.
                stepCopy: { test: /[\\/]src[\\/]services[\\/]stepMessages\.ts$/, chunks: 'async' as const, enforce: true },
              },
            },
          },
        }
      : {}),
  };
}

/**
 * The server's rendering (src/serverRender.tsx) for Node: one CommonJS file with every view in it (no chunks to load;
 * a lazy view resolves at once), React's server renderer included, stylesheets left out (the page links its own).
 * `.cjs`, so Node (and jest, which transforms `.js`) loads it as it is.
 */
function serverRender(production: boolean): webpack.Configuration {
  const { tsRule, devPlugins, ...shared } = common(production);
  return {
    ...shared,
    name: 'server-render',
    entry: { render: './src/serverRender.tsx' },
    target: 'node20',
    output: { path: path.join(outDir, SERVER_RENDER_DIR), filename: '[name].cjs', library: { type: 'commonjs2' }, clean: true },
    devtool: false,
    module: { rules: [tsRule, { test: /\.css$/, type: 'asset/source' }, { test: /\.svg$/, type: 'asset/inline' }] },
    plugins: [...devPlugins, new webpack.optimize.LimitChunkCountPlugin({ maxChunks: 1 })],
    // Read by the server only, once per process: no gain in minifying it, and its stack traces stay readable.
    optimization: { minimize: false },
  };
}

/**
 * The merchant's desk (src/desk/main.tsx): a build of its own, so that nothing of it reaches the payer's scripts (the
 * page's build never sees its modules) and its chunks share nothing with the page's. Its template is filled by the
 * server per request (server/desk/pageRoutes.ts).
 */
function desk(production: boolean): webpack.Configuration {
  const { tsRule, devPlugins, ...shared } = common(production);
  return {
    ...shared,
    name: 'desk',
    optimization: { minimizer: browserMinimizer() },
    entry: { desk: './src/desk/main.tsx' },
    target: ['web', 'es2022'],
    output: {
      path: path.join(outDir, DESK_DIR),
      publicPath: '/desk/assets/',
      filename: production ? '[name].[contenthash:8].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
      clean: true,
    },
    devtool: production ? false : 'cheap-module-source-map',
    module: { rules: [tsRule, { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] }] },
    plugins: [
      new MiniCssExtractPlugin({ filename: production ? '[name].[contenthash:8].css' : '[name].css' }),
      new HtmlWebpackPlugin({
        templateContent: fs.readFileSync(path.resolve(__dirname, 'public', 'desk.html'), 'utf8'),
        filename: 'index.html',
        inject: 'body',
        scriptLoading: 'defer',
        minify: false,
      }),
      ...devPlugins,
      ...(production ? [new PrecompressPlugin()] : []),
    ],
  };
}

export default (_env: unknown, argv: { mode?: Mode }): webpack.Configuration[] => {
  const production = argv.mode !== 'development';
  return [page(production), serverRender(production), desk(production)];
};
