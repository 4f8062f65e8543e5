import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { SbpBank } from '../../src/services/sbpBanks';

/**
 * The fast-payment member banks (for opening the payer's bank app from a phone): NSPK's public list, which
 * the server owns. A snapshot ships in server/data/sbp-banks.json; with a source URL the list is refreshed from there,
 * and a download replaces it only when it passes the check below, so the page always gets the last good list and
 * never an empty one.
 */

/** The snapshot shipped with the server (2026-04-29, 192 banks). */
export const BUNDLED_LIST_FILE = path.join(__dirname, '..', 'data', 'sbp-banks.json');

/** One bank as the page reads it (GET /api/sbp-banks): the page's own type, so the two cannot drift apart. */
export type SbpBankOut = SbpBank;

/** A bank as NSPK's list gives it (the snapshot's format), after the check. */
interface SourceBank {
  id: string;
  name: string;
  logo: string | null;
  schema: string;
  package: string | null;
  isWebClientActive: boolean;
  webClientUrl: string | null;
}

export type ListCheck = { banks: SourceBank[]; updatedAt: string } | { error: string };

const ID = /^\d{12}$/;
// NSPK's schemes are 'bank' and the member's 12-digit id (the snapshot's every one). Nothing else can reach an href:
// a scheme like `javascript` or `intent` from a tampered download must never become a link on a payment page.
const SCHEMA = /^bank\d{12}$/;
const PACKAGE = /^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/;
const MAX_NAME = 200;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};
/** '' and null both mean "none" in NSPK's list. */
const optionalText = (value: unknown): string | null | undefined => (value === null || value === '' ? null : typeof value === 'string' ? value : undefined);

/**
 * The schema check a list must pass to be served: the snapshot's shape, every bank well formed, ids unique, at least
 * one bank. One bad bank refuses the whole download: a list that changed shape is not trusted in part.
 */
export function checkBankList(json: unknown): ListCheck {
  if (!isObject(json) || !Array.isArray(json.banks)) return { error: 'no "banks" array' };
  if (json.banks.length === 0) return { error: 'the list is empty' };
  const updatedAt = typeof json.updatedAt === 'string' && !Number.isNaN(Date.parse(json.updatedAt)) ? json.updatedAt : null;
  if (!updatedAt) return { error: '"updatedAt" is not a date' };
  const seen = new Set<string>();
  const banks: SourceBank[] = [];
  for (const [index, entry] of json.banks.entries()) {
    const bad = (what: string) => ({ error: `bank ${index}: ${what}` });
    if (!isObject(entry)) return bad('not an object');
    const { id, name, schema } = entry;
    if (typeof id !== 'string' || !ID.test(id)) return bad('"id" is not 12 digits');
    if (seen.has(id)) return bad(`id ${id} is repeated`);
    seen.add(id);
    if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME) return bad('"name" is missing or too long');
    if (typeof schema !== 'string' || !SCHEMA.test(schema)) return bad('"schema" is not bank<12 digits>');
    const pkg = optionalText(entry.package);
    if (pkg === undefined || (pkg !== null && !PACKAGE.test(pkg))) return bad('"package" is not an Android package name');
    const logo = optionalText(entry.logo);
    if (logo === undefined || (logo !== null && !isHttpUrl(logo))) return bad('"logo" is not a URL');
    const webClientUrl = optionalText(entry.webClientUrl);
    if (webClientUrl === undefined || (webClientUrl !== null && !isHttpUrl(webClientUrl))) return bad('"webClientUrl" is not a URL');
    if (typeof entry.isWebClientActive !== 'boolean') return bad('"isWebClientActive" is not true or false');
    banks.push({ id, name: name.trim(), schema, package: pkg, logo, isWebClientActive: entry.isWebClientActive, webClientUrl });
  }
  return { banks, updatedAt };
}

/** What GET /api/sbp-banks sends: the body once serialized and compressed, and its validator. */
export interface ServedList {
  body: string;
  gzip: Buffer;
  br: Buffer;
  etag: string;
  count: number;
  updatedAt: string;
  /** NSPK's logo address of each bank that has one, for the logo route. */
  logos: Map<string, string>;
}

export const logoPath = (id: string) => `/api/sbp-banks/logos/${id}`;

/**
 * The last body compressed in this process, and its compressions: at the strongest levels they cost tens of
 * milliseconds, and every server a process starts (the tests start hundreds) serves the same snapshot first.
 */
let lastCompressed: { body: string; gzip: Buffer; br: Buffer } | null = null;

function compressed(body: string): { gzip: Buffer; br: Buffer } {
  if (lastCompressed?.body !== body) {
    lastCompressed = {
      body,
      gzip: zlib.gzipSync(body, { level: 9 }),
      br: zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    };
  }
  return lastCompressed;
}

function serve({ banks, updatedAt }: { banks: SourceBank[]; updatedAt: string }): ServedList {
  const out: SbpBankOut[] = banks.map((bank) => ({
    id: bank.id,
    name: bank.name,
    schema: bank.schema,
    package: bank.package,
    // Only an active, https web client: a payment must not be sent to a page over plain http.
    webClientUrl: bank.isWebClientActive && bank.webClientUrl?.startsWith('https://') ? bank.webClientUrl : null,
    logo: bank.logo ? logoPath(bank.id) : null,
  }));
  const body = JSON.stringify({ updatedAt, banks: out });
  const hash = crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27);
  const { gzip, br } = compressed(body);
  return {
    body,
    gzip,
    br,
    // Weak: the same list sent as identity, gzip or br is one resource for the cache.
    etag: `W/"${hash}"`,
    count: out.length,
    updatedAt,
    logos: new Map(banks.flatMap((bank) => (bank.logo ? [[bank.id, bank.logo] as const] : []))),
  };
}

export type RefreshOutcome = 'updated' | 'unchanged' | 'refused' | 'failed';

export interface Logo {
  type: string;
  bytes: Buffer;
}

interface Log {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export interface SbpBankListOptions {
  /** Where a fresh list is published (SBP_BANKS_URL); null keeps the snapshot. */
  sourceUrl: string | null;
  fetch: typeof fetch;
  log: Log;
  now?: () => number;
  bundledFile?: string;
}

/** A download larger than this is not a bank list (the snapshot is about 60 KB). */
const MAX_LIST_BYTES = 2 * 1024 * 1024;
const MAX_LOGO_BYTES = 128 * 1024;
/** Raster images only: an SVG is a document that could carry script. */
const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const FETCH_TIMEOUT_MS = 15_000;
const LOGO_TIMEOUT_MS = 5000;
/** A logo is fetched again after a day; one that failed is not asked for again for ten minutes. */
const LOGO_KEEP_MS = 24 * 60 * 60 * 1000;
const LOGO_RETRY_MS = 10 * 60 * 1000;

/**
 * The body of an answer, read as it streams in and given up (the download cancelled) once it passes `maxBytes`: an
 * endless or oversized answer never fills the memory. null when it was too large.
 */
async function readCapped(response: Response, maxBytes: number): Promise<Buffer | null> {
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, size);
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
}

export function createSbpBankList({ sourceUrl, fetch, log, now = Date.now, bundledFile = BUNDLED_LIST_FILE }: SbpBankListOptions) {
  const bundled = checkBankList(JSON.parse(fs.readFileSync(bundledFile, 'utf8')));
  // The shipped snapshot must pass its own check: a broken one is a build mistake, found at start.
  if ('error' in bundled) throw new Error(`the bundled SBP bank list is invalid: ${bundled.error}`);
  let served = serve(bundled);

  // Logos are fetched from NSPK's host (or the list's own host), never from an address a list could point anywhere.
  const logoHosts = new Set(['qr.nspk.ru', ...(sourceUrl ? [new URL(sourceUrl).host] : [])]);
  const logoCache = new Map<string, { logo: Logo | null; at: number }>();
  const logoLoads = new Map<string, Promise<Logo | null>>();

  async function download(url: string): Promise<unknown> {
    const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`answered ${response.status}`);
    const bytes = await readCapped(response, MAX_LIST_BYTES);
    if (!bytes) throw Object.assign(new Error('the download is too large'), { refused: true });
    try {
      return JSON.parse(bytes.toString('utf8')) as unknown;
    } catch {
      throw Object.assign(new Error('the download is not JSON'), { refused: true });
    }
  }

  /** Fetches the list from the source; a failure or a refused download keeps the list being served. */
  async function refresh(): Promise<RefreshOutcome> {
    if (!sourceUrl) return 'unchanged';
    let json: unknown;
    try {
      json = await download(sourceUrl);
    } catch (error) {
      const refused = (error as { refused?: boolean }).refused === true;
      log.warn({ source: sourceUrl, reason: (error as Error).message }, `SBP bank list not refreshed: ${refused ? 'download refused' : 'download failed'}, the last good list is kept`);
      return refused ? 'refused' : 'failed';
    }
    const checked = checkBankList(json);
    // A list that lost half its banks overnight is a truncated or wrong file, not the news.
    const reason = 'error' in checked ? checked.error : checked.banks.length < served.count / 2 ? `only ${checked.banks.length} banks of ${served.count}` : null;
    if (reason || 'error' in checked) {
      log.warn({ source: sourceUrl, reason }, 'SBP bank list download refused by the schema check, the last good list is kept');
      return 'refused';
    }
    const next = serve(checked);
    if (next.etag === served.etag) return 'unchanged';
    served = next;
    log.info({ banks: next.count, updatedAt: next.updatedAt }, 'SBP bank list refreshed');
    return 'updated';
  }

  /**
   * A logo from an allowed host, or null. No redirect is followed (a 3xx is refused): a hop could lead anywhere, this
   * machine or the internal network included, past the host check. Only a raster image is taken, read up to its cap
   * (a declared length past it is not read at all), within the time-out.
   */
  async function fetchLogo(url: string): Promise<Logo | null> {
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== 'https:' || !logoHosts.has(parsed.host)) return null;
      const response = await fetch(parsed, { redirect: 'manual', signal: AbortSignal.timeout(LOGO_TIMEOUT_MS) });
      const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      const declared = Number(response.headers.get('content-length') ?? 0);
      if (response.status !== 200 || !LOGO_TYPES.includes(type) || declared > MAX_LOGO_BYTES) {
        await response.body?.cancel();
        return null;
      }
      const bytes = await readCapped(response, MAX_LOGO_BYTES);
      return bytes && bytes.length > 0 ? { type, bytes } : null;
    } catch {
      return null;
    }
  }

  /** The bank's logo, fetched once and kept; null when the bank has none or its host cannot give it now. */
  async function logo(id: string): Promise<Logo | null> {
    const url = served.logos.get(id);
    if (!url) return null;
    const cached = logoCache.get(url);
    if (cached && now() - cached.at < (cached.logo ? LOGO_KEEP_MS : LOGO_RETRY_MS)) return cached.logo;
    let loading = logoLoads.get(url);
    if (!loading) {
      loading = fetchLogo(url).then((found) => {
        logoCache.set(url, { logo: found, at: now() });
        logoLoads.delete(url);
        return found;
      });
      logoLoads.set(url, loading);
    }
    return loading;
  }

  return {
    /** The list served now. */
    get current(): ServedList {
      return served;
    },
    refresh,
    logo,
  };
}

