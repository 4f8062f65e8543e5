/**
 * V8's compiled code kept for the jest worker's life. Jest evaluates every module again in each test file, in the
 * file's own context, and compiles each one again: the same sources, file after file. This keeps V8's code cache of
 * each module's wrapper after its first compile in the worker and hands it to V8 for the same source in later files,
 * which then skips parsing and compiling the module's body. The code is kept only for the very same source and
 * parameters (compared whole), and V8 compiles as before when its data does not fit.
 */
import vm from 'node:vm';

type CompileFunction = typeof vm.compileFunction;

interface Compiled {
  code: string;
  params: string;
  data: Buffer;
}

const compiled = new Map<string, Compiled>();
const original: CompileFunction = vm.compileFunction;

function withCodeCache(...[code, params, options]: Parameters<CompileFunction>): ReturnType<CompileFunction> {
  const filename = options?.filename;
  if (!filename || options.cachedData || options.produceCachedData) return original(code, params, options);
  const names = (params ?? []).join(',');
  const found = compiled.get(filename);
  const fits = found !== undefined && found.params === names && found.code === code;
  const made = original(code, params, fits ? { ...options, cachedData: found.data } : { ...options, produceCachedData: true });
  if (!fits && made.cachedData) compiled.set(filename, { code, params: names, data: made.cachedData });
  else if (fits && made.cachedDataRejected) compiled.delete(filename);
  return made;
}

// Once per worker, whichever environment loads this first.
if (original.name !== withCodeCache.name) vm.compileFunction = withCodeCache;
