import { enqueueActions, type AnyActorLogic, type EventObject, type InputFrom, type MachineContext } from 'xstate';
import type { codeFlowMachine } from './codeFlow';
import type { freeCallMachine } from './freeCall';
import type { offerMachine } from './offer';
import type { paymentMachine } from './payment';
import type { paymentStatusMachine } from './paymentStatus';
import type { signInMachine } from './signIn';
import { promiseStub } from './stub';

/*
 * The page's code beyond its first scripts comes in chunks, each with the views of some steps and the logic of the
 * children those steps run. Code that is not here yet is a state: a state that needs a chunk invokes `loadCode` (the
 * composition root's, with one retry of its own), goes on when the chunk is here, and when it cannot come waits in a
 * state of its own for the payer's 'code.retry'. The logic a chunk brings is kept in the machine's context (`code`) and
 * its children are started from it, so no state runs a child before the done event of its chunk's load carried it.
 * Views read a chunk's views once the state that shows them is entered (the composition root hands them the chunks).
 */

/** The logic of the children each chunk brings, by the names the machines give them. */
export interface ChunkLogic {
  /** The way to pay, the fast payment's QR and the result: the offer modal's text, paying, the status polling. */
  paying: { offer: typeof offerMachine; payment: typeof paymentMachine; paymentStatus: typeof paymentStatusMachine };
  /** The points, password-restore and registration steps with the code screen: a send-code flow per purpose, the free call. */
  accountFlows: {
    pointsCode: typeof codeFlowMachine;
    passwordCode: typeof codeFlowMachine;
    registrationCode: typeof codeFlowMachine;
    freeCall: typeof freeCallMachine;
  };
  /** The account route's sign-in form. */
  signInForm: { signIn: typeof signInMachine };
  /** A paid bill's receipt: views only. */
  paidBill: Record<string, never>;
}

export type Chunk = keyof ChunkLogic;

/** Every chunk, by name. */
export const chunks = Object.keys({ paying: true, accountFlows: true, signInForm: true, paidBill: true } satisfies Record<Chunk, true>) as Chunk[];

/** The chunks here so far, each with its children's logic. */
export type LoadedCode = { readonly [C in Chunk]?: ChunkLogic[C] };

/** Resolves with the chunks asked for, each with its logic; rejects when one cannot be had (after its one retry). */
export const loadCodeStub = promiseStub<LoadedCode, { chunks: readonly Chunk[] }>('loadCode');

/** Those of `chunks` not here yet. */
export const missingChunks = (code: LoadedCode, chunks: readonly Chunk[]): Chunk[] => chunks.filter((chunk) => !code[chunk]);

/**
 * A chunk's logic, for a state that starts one of its children. Such a state is entered only once its chunk is here
 * (the chart loads it first): reaching it without is a mistake in the chart, said as such.
 */
export function logicOf<C extends Chunk>(code: LoadedCode, chunk: C): ChunkLogic[C] {
  const logic = code[chunk];
  if (!logic) throw new Error(`The ${chunk} chunk is not here: the chart entered a state that runs its children before loading it`);
  return logic;
}

/**
 * A child whose logic comes with its chunk, named among a machine's actors for its type only (`types.children` then
 * types `state.children.<id>` as that machine's ref): it is started from the logic its chunk brought (`startChild`),
 * never by this name, which fails loudly if used.
 */
export const fromChunk = <Logic extends AnyActorLogic>(name: string): Logic =>
  promiseStub(`${name} (started from its chunk's logic, never by its name)`) as unknown as Logic;

/** A child to start: its id (`types.children`), the logic its chunk brought, its input as that logic takes it. */
export interface ChildToStart {
  id: string;
  logic: AnyActorLogic;
  input: unknown;
}

export const child = <Logic extends AnyActorLogic>(id: string, logic: Logic, input: InputFrom<Logic>): ChildToStart => ({ id, logic, input });

/**
 * Starts a child from the logic its chunk brought, under its id, as `invoke` would; the state that starts it stops it
 * on exit (`stopChild`), and its done event comes to the machine as an invoked child's does. Typed apart from setup(),
 * whose actors name these children for their types only.
 */
export function startChild<TContext extends MachineContext, TEvent extends EventObject, Params extends Record<string, unknown> | undefined = undefined>(
  which: (context: TContext, params: Params) => ChildToStart,
) {
  return enqueueActions<TContext, TEvent, Params, TEvent, never, never, never, never, never>(({ context, enqueue }, params) => {
    const { id, logic, input } = which(context, params);
    // XState's types give an id only to an actor started by its name in setup(); these are named there for their types
    // (`fromChunk`) and started from the logic their chunk brought, under that same id.
    const spawn = enqueue.spawnChild as unknown as (logic: AnyActorLogic, options: { id: string; input: unknown }) => void;
    spawn(logic, { id, input });
  });
}
