import path from 'node:path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import webpack from 'webpack';
import { PrecompressPlugin } from './scripts/precompress';
import { stripStatechartDescriptions } from './scripts/stripDescriptions';

// DIST_DIR lets parallel builds (tests, benchmarks) write to their own folder instead of racing on dist/.
const outDir = path.resolve(__dirname, process.env.DIST_DIR ?? 'dist');

export default (_env: unknown, argv: { mode?: 'production' | 'development' }): webpack.Configuration => {
  const production = argv.mode !== 'development';
  return {
    mode: production ? 'production' : 'development',
    entry: { main: './src/main.tsx' },
    // The page's own code is ES2022 already (tsconfig's target, ky's private fields): webpack's runtime may be too.
    target: ['web', 'es2022'],
    output: {
      path: outDir,
      publicPath: '/assets/',
      filename: production ? '[name].[contenthash:8].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
      clean: true,
    },
    // No eval-based maps: the server's CSP (no 'unsafe-eval') would stop a development build from running.
    devtool: production ? false : 'cheap-module-source-map',
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
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          loader: 'ts-loader',
          exclude: /node_modules/,
          // Production drops the statecharts' description texts (scripts/stripDescriptions.ts).
          options: { transpileOnly: true, ...(production ? { getCustomTransformers: () => ({ before: [stripStatechartDescriptions] }) } : {}) },
        },
        { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
        { test: /\.svg$/, type: 'asset/inline' },
      ],
    },
    plugins: [
      new MiniCssExtractPlugin({ filename: production ? '[name].[contenthash:8].css' : '[name].css' }),
      // The server fills the placeholders of this template per request (CSRF token, config, mount point).
      new HtmlWebpackPlugin({
        template: './public/index.html',
        filename: 'index.html',
        inject: 'body',
        scriptLoading: 'defer',
        // Not minified: the template is tiny and its placeholders must keep their attribute quotes.
        minify: false,
      }),
      // Lets the inspector import be dropped from the production bundle.
      new webpack.DefinePlugin({ __DEV__: JSON.stringify(!production) }),
      // Compressed twins of the assets for the server to send (budgets in docs/benchmarks.md).
      ...(production ? [new PrecompressPlugin()] : []),
    ],
    // React in a script of its own: the page's first JS is evaluated as two shorter tasks instead of one long one
    // (Lighthouse's total blocking time), and the framework stays cached across releases of the app.
    ...(production
      ? {
          optimization: {
            splitChunks: {
              cacheGroups: {
                framework: { test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/, name: 'framework', chunks: 'all' as const, priority: 40, enforce: true },
                // The later steps' copy, fetched once with the first of them (Checkout preloads the way-to-pay step) rather
                // than repeated in every step's chunk.
                stepCopy: { test: /[\\/]src[\\/]services[\\/]stepMessages\.ts$/, chunks: 'async' as const, enforce: true },
              },
            },
          },
        }
      : {}),
    performance: { hints: false },
    stats: 'errors-warnings',
  };
};
