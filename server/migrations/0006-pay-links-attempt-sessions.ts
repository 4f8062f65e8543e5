/**
 * Every bill gets a public link id, the page's only name for it (billing/payLinks.ts): existing bills an unguessable
 * one, except the demo bills and their sandbox copies, which keep their objectOID as their link so the demo's links
 * stay valid. An attempt records the session that asked for it (a retry prefills the e-mail only there).
 */
import type { Kysely } from 'kysely';
import { newLinkId } from '../billing/payLinks';
import type { Migration } from '../store/migrator';

/**
 * The objectOIDs the demo seed gave its bills when 0006 was written (sandbox copies are known by copied_from). Written
 * out here, not read from the seed: a migration must do the same thing whenever it runs.
 */
const SEEDED_DEMO_BILLS = ['demo-anon', 'demo-points', 'demo-reg', 'demo-offer', 'demo-cover', 'demo-paid'];

export const migration: Migration = {
  up: async (db) => {
    await db.schema.alterTable('bills').addColumn('link_id', 'text').execute();
    const bills = db as Kysely<{ bills: { oid: string; copied_from: string | null; link_id: string | null } }>;
    for (const bill of await bills.selectFrom('bills').select(['oid', 'copied_from']).execute()) {
      const demo = SEEDED_DEMO_BILLS.includes(bill.oid) || bill.copied_from !== null;
      await bills.updateTable('bills').set({ link_id: demo ? bill.oid : newLinkId() }).where('oid', '=', bill.oid).execute();
    }
    await db.schema.createIndex('bills_by_link').unique().on('bills').column('link_id').execute();

    await db.schema
      .alterTable('payment_attempts')
      .addColumn('session_id', 'text', (c) => c.references('sessions.id').onUpdate('cascade').onDelete('set null'))
      .execute();
    // A session's rename (sign-in) and deletion (logout, the sweep) reach its attempts through this index.
    await db.schema.createIndex('attempts_by_session').on('payment_attempts').column('session_id').execute();
  },
};
