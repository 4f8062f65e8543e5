import { steps, type Step } from './machines/steps';
import type { Chunk } from './machines/chunks';
import type { ChunkViews, StepView } from './views/chunkViews';

/*
 * The page's code beyond its first scripts: a chunk per part of the checkout (machines/chunks.ts), each a module of
 * src/chunks/ with the views of its steps and the logic of the children they run. The machines load one when a state
 * needs it (the `loadCode` actor, actors/code.ts); the views read what has come (`chunkViews`).
 */

/** Each chunk's module, as src/chunks/ writes them. */
export interface ChunkModules {
  paying: typeof import('./chunks/paying');
  accountFlows: typeof import('./chunks/accountFlows');
  signInForm: typeof import('./chunks/signInForm');
  paidBill: typeof import('./chunks/paidBill');
}

/**
 * Each chunk, fetched: webpack makes each `import()` a file of its own, named after the chunk (`paying.1a2b3c4d.js`),
 * with what it shares with others in files of their own.
 */
const fetchers: { [C in Chunk]: () => Promise<ChunkModules[C]> } = {
  paying: () => import(/* webpackChunkName: "paying" */ './chunks/paying'),
  accountFlows: () => import(/* webpackChunkName: "accountFlows" */ './chunks/accountFlows'),
  signInForm: () => import(/* webpackChunkName: "signInForm" */ './chunks/signInForm'),
  paidBill: () => import(/* webpackChunkName: "paidBill" */ './chunks/paidBill'),
};

/** How long to wait before the one retry of a chunk that failed to load (a phone's flaky network). */
export const CHUNK_RETRY_MS = 1500;

/** How a chunk is fetched: the browser's own way (webpack's `import()`), or a test's network, which may lose it. */
export type FetchChunk = <C extends Chunk>(chunk: C, fetch: () => Promise<ChunkModules[C]>) => Promise<ChunkModules[C]>;

export interface PageCode {
  /** A chunk's module: fetched once, retried once 1.5 s after a failure; lost twice, the next load asks again. */
  load<C extends Chunk>(chunk: C): Promise<ChunkModules[C]>;
  /** A chunk's module once it is here, else null. */
  here<C extends Chunk>(chunk: C): ChunkModules[C] | null;
}

/** One page's chunks: what has come and what is on its way. */
export function pageCode(fetchChunk: FetchChunk = (_, fetch) => fetch()): PageCode {
  const here: { [C in Chunk]?: ChunkModules[C] } = {};
  const loading: { [C in Chunk]?: Promise<ChunkModules[C]> } = {};
  const fetchOnce = <C extends Chunk>(chunk: C) => fetchChunk(chunk, fetchers[chunk]);
  const attempt = <C extends Chunk>(chunk: C) =>
    fetchOnce(chunk).catch(() => new Promise<void>((resolve) => setTimeout(resolve, CHUNK_RETRY_MS)).then(() => fetchOnce(chunk)));
  const load = <C extends Chunk>(chunk: C): Promise<ChunkModules[C]> => {
    const started = (loading[chunk] as Promise<ChunkModules[C]> | undefined) ??
      attempt(chunk).then(
        (module) => {
          (here as Record<C, ChunkModules[C]>)[chunk] = module;
          return module;
        },
        (error: unknown) => {
          // Lost twice: the payer's retry asks again.
          delete loading[chunk];
          throw error;
        },
      );
    (loading as Record<C, Promise<ChunkModules[C]>>)[chunk] = started;
    return started;
  };
  return { load, here: (chunk) => here[chunk] ?? null };
}

/** The views the chunks have brought, for the page's views (views/chunkViews.ts). */
export function chunkViews(code: PageCode): ChunkViews {
  return {
    step: (step: Step): StepView | null => {
      const chunk = steps[step].chunk;
      const views: Partial<Record<Step, StepView>> = (chunk && code.here(chunk)?.views) || {};
      return views[step] ?? null;
    },
    signInForm: () => code.here('signInForm')?.views.signInForm ?? null,
    paidBill: () => code.here('paidBill')?.views.paidBill ?? null,
  };
}
