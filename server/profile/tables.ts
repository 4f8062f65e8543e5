/** The merchant's profile, one row per setting an admin changed at the desk (a setting never changed has its default). */
import type { Selectable } from 'kysely';

export interface MerchantProfileTable {
  /** The setting: name, support_phone, support_email, logo, offer_aggregator, offer_executer, webhook_url. */
  name: string;
  /** Text, or JSON for the logo and the offer documents. */
  value: string;
  updated_at: number;
}
export type ProfileRow = Selectable<MerchantProfileTable>;

declare module '../store/database' {
  interface Database {
    merchant_profile: MerchantProfileTable;
  }
}
