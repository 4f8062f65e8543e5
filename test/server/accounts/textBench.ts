import { insertSession } from '../../../server/accounts/sessionQueries';
import type { RootStore } from '../../../server/store/store';
import { textLine, type TextLine } from '../../support/textLine';
import { startStore, type TestStore } from '../helpers';

/**
 * The bench of a flow that sends texts, as a domain function on a real store (registration, restore): for each test a
 * seeded store, the text line in front of its outbox and the session 'session-1' that asks; closed after the test.
 */
export function textBench(): { readonly store: RootStore; readonly line: TextLine } {
  let t: TestStore;
  let line: TextLine;
  beforeEach(async () => {
    t = await startStore();
    line = await textLine(t.store);
    await insertSession(t.store, 'session-1', 'token-1');
  });
  afterEach(() => t.close());
  return {
    get store() {
      return t.store;
    },
    get line() {
      return line;
    },
  };
}
