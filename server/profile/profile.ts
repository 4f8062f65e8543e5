/**
 * The merchant's profile: who takes the money and how to reach them (the payer's page header), its logo, the offer
 * documents the payer accepts, and where its webhooks go. The server's configuration gives the defaults
 * (MERCHANT_NAME, MERCHANT_SUPPORT_PHONE, MERCHANT_SUPPORT_EMAIL, MERCHANT_WEBHOOK_URL, today's offer texts); an admin
 * changes them at the desk, and every process reads the database, so a change shows on the next page anyone opens.
 */
import { isPlausibleEmail } from '../platform/patterns';
import { prepared } from '../store/prepared';
import type { Store } from '../store/store';
import { DEFAULT_OFFERS, offerProblems, OFFER_KINDS, type OfferDocument, type OfferKind } from './offers';

/** What the configuration says until an admin says otherwise. */
export interface ProfileDefaults {
  merchantName: string;
  merchantSupportPhone: string;
  merchantSupportEmail: string;
  /** MERCHANT_WEBHOOK_URL, or the sandbox's inbox; null: nowhere. */
  webhookUrl: () => string | null;
}

/** The merchant as the payer's page shows it. */
export interface PayerMerchant {
  name: string;
  supportPhone: string;
  supportEmail: string;
}

export interface MerchantProfile extends PayerMerchant {
  offers: Record<OfferKind, OfferDocument>;
  /** Set at the desk; null: the configured one (`webhookUrlDefault`). */
  webhookUrl: string | null;
  webhookUrlDefault: string | null;
  /** The logo's type and when it was last changed (its version); null: none. */
  logo: { type: LogoType; updatedAt: number } | null;
}

/** The logo's formats: pictures a browser shows and no script can hide in (never SVG). */
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
export const LOGO_MAX_BYTES = 200 * 1024;

/** A change an admin asks for: the fields given change, the others stay. '' for a support contact hides it. */
export interface ProfileChange {
  name?: string;
  supportPhone?: string;
  supportEmail?: string;
  /** '' or null: back to the configured URL. */
  webhookUrl?: string | null;
  offers?: Partial<Record<OfferKind, OfferDocument>>;
}

type Setting = 'name' | 'support_phone' | 'support_email' | 'webhook_url' | 'logo' | `offer_${OfferKind}`;

const payerSettings = prepared((db) => db.selectFrom('merchant_profile').select(['name', 'value']).where('name', 'in', ['name', 'support_phone', 'support_email']));

/** The merchant as the payer's page shows it: one read, on every page (the header says whose page it is). */
export async function payerMerchant(store: Store, defaults: ProfileDefaults): Promise<PayerMerchant> {
  const rows = new Map((await payerSettings(store, {})).map((row) => [row.name, row.value]));
  return {
    name: rows.get('name') ?? defaults.merchantName,
    supportPhone: rows.get('support_phone') ?? defaults.merchantSupportPhone,
    supportEmail: rows.get('support_email') ?? defaults.merchantSupportEmail,
  };
}

const settingsOf = async (store: Store) =>
  new Map((await store.db.selectFrom('merchant_profile').select(['name', 'value', 'updated_at']).where('name', '!=', 'logo').execute()).map((row) => [row.name, row.value]));

const offerOf = (value: string | undefined, kind: OfferKind): OfferDocument => (value ? (JSON.parse(value) as OfferDocument) : DEFAULT_OFFERS[kind]);

/** The offer documents as they stand (the merchant's, or the defaults). */
export async function offerDocuments(store: Store): Promise<Record<OfferKind, OfferDocument>> {
  const rows = await store.db.selectFrom('merchant_profile').select(['name', 'value']).where('name', 'in', ['offer_aggregator', 'offer_executer']).execute();
  const byName = new Map(rows.map((row) => [row.name, row.value]));
  return { aggregator: offerOf(byName.get('offer_aggregator'), 'aggregator'), executer: offerOf(byName.get('offer_executer'), 'executer') };
}

/** Where webhooks go now: the URL set at the desk, else the configured one. */
export async function webhookUrlOf(store: Store, defaults: Pick<ProfileDefaults, 'webhookUrl'>): Promise<string | null> {
  const row = await store.db.selectFrom('merchant_profile').select('value').where('name', '=', 'webhook_url').executeTakeFirst();
  return row?.value ?? defaults.webhookUrl();
}

/** The whole profile, as the desk's settings show it. */
export async function readProfile(store: Store, defaults: ProfileDefaults): Promise<MerchantProfile> {
  const [settings, logo] = await Promise.all([settingsOf(store), logoVersion(store)]);
  return {
    name: settings.get('name') ?? defaults.merchantName,
    supportPhone: settings.get('support_phone') ?? defaults.merchantSupportPhone,
    supportEmail: settings.get('support_email') ?? defaults.merchantSupportEmail,
    offers: { aggregator: offerOf(settings.get('offer_aggregator'), 'aggregator'), executer: offerOf(settings.get('offer_executer'), 'executer') },
    webhookUrl: settings.get('webhook_url') ?? null,
    webhookUrlDefault: defaults.webhookUrl(),
    logo,
  };
}

/** A support phone as people write it: digits, spaces, +, brackets and hyphens. */
const SUPPORT_PHONE = /^[0-9+() -]{5,40}$/;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https anywhere; plain http only to this machine (the sandbox's inbox, a developer's listener). */
export function webhookUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'нужен полный адрес, https://…';
  }
  if (value.length > 2000) return 'не длиннее 2000 символов';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname)) return null;
  return 'только https (http — лишь для localhost)';
}

/** Every problem of a change, by field, in the desk's words; none when it may be saved. */
export function profileProblems(change: ProfileChange): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  if (change.name !== undefined && (change.name.trim() === '' || change.name.length > 200)) problems.push({ field: 'name', message: 'от 1 до 200 символов' });
  if (change.supportPhone !== undefined && change.supportPhone !== '' && !SUPPORT_PHONE.test(change.supportPhone)) {
    problems.push({ field: 'supportPhone', message: 'цифры, пробелы, +, скобки и дефисы, от 5 до 40 знаков (или пусто)' });
  }
  if (change.supportEmail !== undefined && change.supportEmail !== '' && !isPlausibleEmail(change.supportEmail)) problems.push({ field: 'supportEmail', message: 'адрес электронной почты (или пусто)' });
  if (change.webhookUrl) {
    const why = webhookUrlProblem(change.webhookUrl);
    if (why) problems.push({ field: 'webhookUrl', message: why });
  }
  for (const kind of OFFER_KINDS) {
    const document = change.offers?.[kind];
    if (document) problems.push(...offerProblems(document, `offers.${kind}`));
  }
  return problems;
}

/** A change that cannot be saved: every problem, by field. */
export class ProfileInvalid extends Error {
  constructor(readonly fields: { field: string; message: string }[]) {
    super(fields.map((f) => `${f.field}: ${f.message}`).join('; '));
  }
}

async function put(tx: Store, name: Setting, value: string | null): Promise<void> {
  if (value === null) {
    await tx.db.deleteFrom('merchant_profile').where('name', '=', name).execute();
    return;
  }
  await tx.db
    .insertInto('merchant_profile')
    .values({ name, value, updated_at: tx.now() })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: tx.now() }))
    .execute();
}

/**
 * Saves a change in the caller's transaction (refused whole, with every problem, when any field is wrong); answers the
 * names of the fields that changed.
 */
export async function changeProfile(tx: Store, change: ProfileChange): Promise<string[]> {
  const problems = profileProblems(change);
  if (problems.length > 0) throw new ProfileInvalid(problems);
  const changed: string[] = [];
  const set = async (field: string, name: Setting, value: string | null | undefined) => {
    if (value === undefined) return;
    await put(tx, name, value);
    changed.push(field);
  };
  await set('name', 'name', change.name?.trim());
  await set('supportPhone', 'support_phone', change.supportPhone?.trim());
  await set('supportEmail', 'support_email', change.supportEmail?.trim());
  await set('webhookUrl', 'webhook_url', change.webhookUrl === undefined ? undefined : change.webhookUrl || null);
  for (const kind of OFFER_KINDS) {
    const document = change.offers?.[kind];
    await set(`offers.${kind}`, `offer_${kind}`, document ? JSON.stringify({ title: document.title.trim(), text: document.text.replace(/\r\n/g, '\n').trim() }) : undefined);
  }
  return changed;
}

/** What a logo's first bytes say it is (never what the upload claims); null: none of the formats taken. */
export function logoTypeOf(bytes: Buffer): LogoType | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}

export class LogoInvalid extends Error {}

/** Saves the logo (PNG, JPEG or WebP, at most LOGO_MAX_BYTES), or removes it with null, in the caller's transaction. */
export async function changeLogo(tx: Store, bytes: Buffer | null): Promise<void> {
  if (bytes === null) return put(tx, 'logo', null);
  if (bytes.length === 0 || bytes.length > LOGO_MAX_BYTES) throw new LogoInvalid(`Логотип — файл до ${LOGO_MAX_BYTES / 1024} КБ`);
  const type = logoTypeOf(bytes);
  if (!type) throw new LogoInvalid('Логотип — картинка PNG, JPEG или WebP');
  await put(tx, 'logo', JSON.stringify({ type, data: bytes.toString('base64') }));
}

async function logoVersion(store: Store): Promise<MerchantProfile['logo']> {
  const row = await store.db.selectFrom('merchant_profile').select(['value', 'updated_at']).where('name', '=', 'logo').executeTakeFirst();
  return row ? { type: (JSON.parse(row.value) as { type: LogoType }).type, updatedAt: row.updated_at } : null;
}

/** The logo's bytes and type; undefined when there is none. */
export async function logoOf(store: Store): Promise<{ type: LogoType; bytes: Buffer; updatedAt: number } | undefined> {
  const row = await store.db.selectFrom('merchant_profile').select(['value', 'updated_at']).where('name', '=', 'logo').executeTakeFirst();
  if (!row) return undefined;
  const logo = JSON.parse(row.value) as { type: LogoType; data: string };
  return { type: logo.type, bytes: Buffer.from(logo.data, 'base64'), updatedAt: row.updated_at };
}
