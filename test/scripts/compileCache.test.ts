import vm from 'node:vm';

/**
 * The jest workers keep V8's code of each module they compile and hand it back for the same source in the next test
 * file (test/support/compileCache.ts, loaded by the test environments): this file runs in one of them.
 */
describe("the workers' code cache", () => {
  const filename = `/compile-cache-test/${process.pid}-${Math.random().toString(36).slice(2)}.js`;
  const compileIn = (code: string) => vm.compileFunction(code, ['value'], { filename, parsingContext: vm.createContext({}) });

  test("a source compiled again, in another context, gets the first compile's code, and runs in its own context", () => {
    const first = compileIn('return [value * 2, typeof globalThis.marker];');
    expect(first.cachedData).toBeInstanceOf(Uint8Array);
    const again = compileIn('return [value * 2, typeof globalThis.marker];');
    expect(again.cachedDataRejected).toBe(false);
    expect(again.cachedData).toBeUndefined();
    expect(again(21)).toEqual([42, 'undefined']);
  });

  test('a source changed under the same name is compiled afresh, never given the old code', () => {
    compileIn('return value + 1;');
    const changed = compileIn('return value + 2;');
    expect(changed.cachedDataRejected).toBeUndefined();
    expect(changed(1)).toBe(3);
  });
});
