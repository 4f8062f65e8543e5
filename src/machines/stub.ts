import { fromCallback, fromPromise } from 'xstate';

/**
 * Defaults for effects in `setup()`: each fails loudly when used, so a missing wiring at the composition root
 * shows up at once instead of silently doing nothing (STYLE: Sanity's presentation tool).
 */
export function notProvided(name: string): never {
  throw new Error(`${name} is not provided`);
}

export const promiseStub = <Output, Input = void>(name: string) =>
  fromPromise<Output, Input>(async () => notProvided(name));

export const callbackStub = <Input = void>(name: string) =>
  fromCallback<{ type: string }, Input>(() => notProvided(name));
