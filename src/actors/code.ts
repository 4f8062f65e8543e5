import { fromPromise } from 'xstate';
import type { Chunk, ChunkLogic, LoadedCode } from '../machines/chunks';
import type { ChunkModules, PageCode } from '../pageCode';

/** A chunk's children as the machines run them: with the page's effects, or as their machines define them. */
export type LogicOfChunk = (chunk: Chunk, module: ChunkModules[Chunk]) => ChunkLogic[Chunk];

/**
 * The machines' `loadCode` (machines/chunks.ts): the chunks asked for, each with its children's logic, once all are
 * here; it fails when one cannot be had after its retry (pageCode.ts), and the state that asked says so.
 */
export function defineLoadCode(code: PageCode, logicOf: LogicOfChunk) {
  return fromPromise<LoadedCode, { chunks: readonly Chunk[] }>(async ({ input }) => {
    const loaded = await Promise.all(input.chunks.map(async (chunk) => [chunk, logicOf(chunk, await code.load(chunk))] as const));
    return Object.fromEntries(loaded) as LoadedCode;
  });
}

/**
 * The children with the page's effects, made once per chunk when it first comes (a chunk loaded again, as the sign-in
 * form's is each time it shows, gives the same logic).
 */
export function madeOnce(make: LogicOfChunk): LogicOfChunk {
  const made = new Map<Chunk, ChunkLogic[Chunk]>();
  return (chunk, module) => {
    const logic = made.get(chunk) ?? make(chunk, module);
    made.set(chunk, logic);
    return logic;
  };
}
