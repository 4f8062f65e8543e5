/**
 * A bill's public link id: the one name of a bill on the payer's side. The merchant's objectOID is chosen by the
 * merchant and often guessable (`erp-order-1001`), so the page, its calls and its result links never use it: `/pay/<link
 * id>`, object-info, Pay, the offer, the status poll, the points code and the result pages all name the bill by its
 * link id, and an objectOID there is as unknown as any other id. The merchant API keeps the objectOID and hands out the
 * payUrl built from the link id. The demo bills and their sandbox copies are the exception: their link id is their
 * objectOID, so `/pay/demo-anon` opens them.
 */
import crypto from 'node:crypto';
import type { Store } from '../store/store';
import { typesOfBill } from './queries';
import type { BillRow, PaymentTypeCode, PaymentTypeRow } from './tables';

/** An unguessable link id: `pl_` and 144 random bits in base64url (24 characters), within the bill id pattern. */
export const newLinkId = (): string => `pl_${crypto.randomBytes(18).toString('base64url')}`;

/** A payment type as the page names it (cardTypeOID): the bill's link id, a dot and the type's code. */
export const pageTypeOid = (bill: Pick<BillRow, 'link_id'>, code: PaymentTypeCode): string => `${bill.link_id}.${code}`;

/** The bill's payment type a page's cardTypeOID names (one read of the bill's types); undefined when it names none. */
export async function typeOfPage(store: Store, bill: BillRow, cardTypeOid: string): Promise<PaymentTypeRow | undefined> {
  return (await typesOfBill(store, bill.oid)).find((type) => pageTypeOid(bill, type.code) === cardTypeOid);
}
