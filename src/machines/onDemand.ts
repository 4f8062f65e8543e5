import type { AnyActorLogic } from 'xstate';
import { notProvided } from './stub';

/** How long to wait before the one retry of a chunk that failed to load, as for the steps' views (lazyStep.tsx). */
const RETRY_MS = 1500;

/** Code that is a chunk of its own: `load()` fetches it (once; again after a failure), `now()` is the module once here. */
export interface Chunk<Module> {
  readonly name: string;
  /** A machine's own children (checkout.ts), which the composition root replaces: the page never loads these. */
  readonly builtIn: boolean;
  now(): Module | null;
  load(): Promise<Module>;
}

/** Every chunk of actor logic named so far. */
const chunks = new Set<Chunk<unknown>>();

export function chunkOf<Module>(name: string, load: () => Promise<Module>, { builtIn = false } = {}): Chunk<Module> {
  let module: Module | null = null;
  let loading: Promise<Module> | null = null;
  const attempt = () => load().catch(() => new Promise<void>((resolve) => setTimeout(resolve, RETRY_MS)).then(load));
  const chunk: Chunk<Module> = {
    name,
    builtIn,
    now: () => module,
    load: () =>
      (loading ??= attempt().then(
        (loaded) => (module = loaded),
        (error: unknown) => {
          // Lost twice: the next load asks again.
          loading = null;
          throw error;
        },
      )),
  };
  chunks.add(chunk as Chunk<unknown>);
  return chunk;
}

/**
 * Actor logic from a chunk of its own: a machine names it among its actors like any other, and once the chunk is here
 * it is the logic `pick` takes from it, in every respect (every read goes to it). The checkout's children that no first
 * step runs (the offer, paying, polling, the code flows, the free call, a guest's sign-in form) are such, so the first
 * step's scripts do not carry them (initialJsGzipBytes in docs/benchmarks.md). An actor made from it before its chunk is
 * here fails loudly: whatever can reach a state that runs it loads the chunk first (`preloadOnDemand`): the views of the
 * steps that lead there (lazyViews.ts), Continue, the bill's first step (actors/app.ts), a reload that resumes a step
 * (main.tsx), the page once its first step is painted, and the tests' setup.
 */
export function logicOnDemand<Module, Logic extends AnyActorLogic>(name: string, chunk: Chunk<Module>, pick: (module: Module) => Logic): Logic {
  const here = (): Logic | null => {
    const module = chunk.now();
    return module ? pick(module) : null;
  };
  const logic = (): Logic => here() ?? notProvided(`${name} (its code is not loaded yet)`);
  return new Proxy({} as Logic, {
    get: (_, key) => Reflect.get(logic(), key),
    set: (_, key, value) => Reflect.set(logic(), key, value),
    // Before its chunk is here it has nothing to show (the statechart tools look for machines among a machine's actors).
    has: (_, key) => {
      const loaded = here();
      return loaded !== null && Reflect.has(loaded, key);
    },
    getPrototypeOf: () => {
      const loaded = here();
      return loaded ? Reflect.getPrototypeOf(loaded) : Object.prototype;
    },
  });
}

const loadAll = (which: (chunk: Chunk<unknown>) => boolean): Promise<void> =>
  Promise.all([...chunks].filter(which).map((chunk) => chunk.load())).then(() => undefined);

/** Loads the chunks of the logic the composition root provides (or those of the names given); resolves once they are here. */
export const preloadOnDemand = (names?: readonly string[]): Promise<void> => loadAll((chunk) => !chunk.builtIn && (!names || names.includes(chunk.name)));

/** Loads the machines' own children: tests, the statechart tools and the server's rendering run the machines as they are. */
export const preloadBuiltIn = (): Promise<void> => loadAll((chunk) => chunk.builtIn);
