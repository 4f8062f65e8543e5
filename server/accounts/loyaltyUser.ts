import type { LoyaltyUser } from '../../src/services/types';
import type { Store } from '../store/store';
import { accountById } from './accountQueries';
import type { AccountRow, SessionRow } from './tables';

/** The loyalty user as get-user answers it. */
export const userOut = (account: AccountRow) =>
  ({
    email: account.email,
    name: `${account.name} ${account.surname}`.trim(),
    phone: account.phone,
    oid: account.oid,
    picture: account.picture,
  }) satisfies LoyaltyUser;

/** The session's signed-in user as get-user answers it, null for a guest (or no session): the checkout page carries it. */
export async function signedInUser(store: Store, session: SessionRow | undefined): Promise<LoyaltyUser | null> {
  const account = session?.account_id ? await accountById(store, session.account_id) : undefined;
  return account ? userOut(account) : null;
}
