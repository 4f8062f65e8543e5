/** What the desk's page carries: its session's CSRF token and its config (server/desk/pageRoutes.ts). */

export interface DeskConfig {
  sandbox: boolean;
  idleMs: number;
}

export function readDeskPage(document: Document): { csrfToken: string; config: DeskConfig } {
  const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
  let config: Partial<DeskConfig> = {};
  try {
    config = JSON.parse(meta('desk-config') || '{}') as Partial<DeskConfig>;
  } catch {
    // A page without a readable config runs with the defaults.
  }
  return { csrfToken: meta('csrf-token'), config: { sandbox: config.sandbox === true, idleMs: typeof config.idleMs === 'number' ? config.idleMs : 30 * 60_000 } };
}

/** A new Idempotency-Key: one per form opened, so a double submit or a retry makes one bill, one refund. */
export const newIdempotencyKey = (): string => `desk-${crypto.randomUUID()}`;
