import { fromCallback, fromPromise, type EventObject } from 'xstate';

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

/** The default of every machine's 'log error' action: the composition root gives the real logger. */
export const logErrorStub = (_: unknown, _params: { error: unknown }) => notProvided('log error');

/**
 * The params of every 'log error': what went wrong, for the console only. An actor's failure carries
 * `error`; a refusal is an answer whose `error` is the server's reason.
 */
export const errorOf = ({ event }: { event: EventObject }): { error: unknown } => {
  const failed = event as { error?: unknown; output?: { error?: unknown } };
  return { error: 'error' in failed ? failed.error : failed.output?.error };
};
