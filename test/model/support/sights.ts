/**
 * What the payer sees in a model state, as data: the jsdom run (support/screen.ts) checks it with Testing Library,
 * the browser run (test/e2e/modelAdapter.ts) with playwright, so both hold the page to the same description.
 * Strings match an element's whole accessible name or text; RegExps match part of it.
 */
export type Text = string | RegExp;

export type Sight =
  | { heading: Text }
  | { text: Text }
  | { noText: Text }
  /** An alert (role="alert") whose text contains this. */
  | { alert: Text }
  | { noAlert: Text }
  /** A status region (role="status") whose text contains this. */
  | { status: Text }
  | { button: Text }
  | { disabledButton: Text }
  | { noButton: Text }
  | { link: Text }
  | { noLink: Text }
  | { field: Text }
  | { noField: Text }
  | { checked: Text }
  | { unchecked: Text }
  | { dialog: Text }
  | { noDialog: true }
  /** Whether the header's 'Назад' shows. */
  | { back: boolean }
  /** The browser was sent to an address matching this. */
  | { navigatedTo: RegExp }
  /** The page reloaded itself. */
  | { reloaded: true };

export interface ModelMeta {
  sees: Sight[];
}

/** A model state's meta: what the payer sees there. */
export const sees = (...sights: Sight[]): ModelMeta => ({ sees: sights });

/** The sights of every active model state, outer states first. */
export function sightsOf(snapshot: { getMeta(): Record<string, unknown> }): Sight[] {
  return Object.values(snapshot.getMeta() as Record<string, Partial<ModelMeta> | undefined>).flatMap((meta) => meta?.sees ?? []);
}

/** A sight as a failure message shows it. */
export const describeSight = (sight: Sight) => JSON.stringify(sight, (_, value: unknown) => (value instanceof RegExp ? String(value) : value));
