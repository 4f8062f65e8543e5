import zlib from 'node:zlib';
import webpack from 'webpack';

/**
 * Writes a .br and a .gz twin next to every built script and stylesheet, compressed once at build time at the
 * highest levels, so the server sends them as they are (@fastify/static `preCompressed`) instead of 400 KB of
 * plain JavaScript to a phone.
 */
export class PrecompressPlugin {
  apply(compiler: webpack.Compiler) {
    compiler.hooks.thisCompilation.tap('PrecompressPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'PrecompressPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER }, (assets) => {
        for (const [name, source] of Object.entries(assets)) {
          if (!/\.(js|css)$/.test(name)) continue;
          const buffer = source.buffer();
          // Tiny files gain nothing and @fastify/static skips them anyway.
          if (buffer.length < 1024) continue;
          const brotli = zlib.brotliCompressSync(buffer, {
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: buffer.length },
          });
          compilation.emitAsset(`${name}.br`, new webpack.sources.RawSource(brotli));
          compilation.emitAsset(`${name}.gz`, new webpack.sources.RawSource(zlib.gzipSync(buffer, { level: 9 })));
        }
      });
    });
  }
}
