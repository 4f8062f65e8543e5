import type { Platform } from './environment';

/**
 * The fast-payment bank list of a phone (opening a bank app from a phone by its link or intent): which banks, in
 * which order, found by which words, and the link that opens each bank's app with the payment. Pure functions; the
 * list itself comes from GET /api/sbp-banks. Loaded with the fast-payment step only.
 */

export interface SbpBank {
  id: string;
  name: string;
  /** The app's URL scheme, like bank100000000111. */
  schema: string;
  /** The Android app's package, or null. */
  package: string | null;
  /** The bank's web client for a QR (https), or null. */
  webClientUrl: string | null;
  /** The logo on this origin, or null: the bank's initials stand in for it. */
  logo: string | null;
}

/**
 * The six banks most payers use, by NSPK id (Сбербанк, Т-Банк, Банк ВТБ, АЛЬФА-БАНК, Райффайзенбанк, Газпромбанк):
 * ids, not names, so a renamed bank keeps its place.
 */
export const MOST_USED_BANK_IDS = ['100000000111', '100000000004', '110000000005', '100000000008', '100000000007', '100000000001'] as const;

/**
 * The names payers type for a bank that NSPK lists under another: old names, short ones, Latin ones, by NSPK id (the
 * list's own names are found as they are).
 */
export const BANK_ALIASES: Readonly<Record<string, readonly string[]>> = {
  '100000000111': ['sber', 'sberbank'],
  '100000000004': ['тинькофф', 'тиньков', 'tinkoff', 'tbank'],
  '110000000005': ['vtb'],
  '100000000008': ['alfa', 'alfabank'],
  '100000000007': ['raiffeisen'],
  '100000000001': ['гпб', 'gazprombank'],
  '100000000010': ['промсвязьбанк', 'psb'],
  '100000000013': ['sovcombank', 'халва'],
  '100000000020': ['рсхб', 'rshb'],
  '100000000025': ['мкб', 'mkb'],
  '100000000017': ['мтс', 'mts'],
  '100000000016': ['pochta'],
  '100000000150': ['yandex'],
  '100000000273': ['ozon'],
};

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const textOrNull = (value: unknown) => (isText(value) ? value : null);

/**
 * The banks of the server's answer. The server checks the list before it serves it; here a bank that is not well
 * formed is only left out, so one odd entry never costs the payer the whole list. The scheme must be the bank's own
 * (`bank` and digits): nothing else may become a link on a payment page.
 */
export function banksOf(answer: unknown): SbpBank[] {
  const banks = (answer as { banks?: unknown } | null)?.banks;
  if (!Array.isArray(banks)) return [];
  return banks.flatMap((entry: unknown) => {
    const bank = (entry ?? {}) as Record<string, unknown>;
    if (!isText(bank.id) || !isText(bank.name) || !isText(bank.schema) || !/^bank\d+$/.test(bank.schema)) return [];
    const web = textOrNull(bank.webClientUrl);
    const logo = textOrNull(bank.logo);
    return [
      {
        id: bank.id,
        name: bank.name,
        schema: bank.schema,
        package: textOrNull(bank.package),
        webClientUrl: web?.startsWith('https://') ? web : null,
        // Only a logo on this origin: the page loads no image from elsewhere (CSP img-src 'self').
        logo: logo?.startsWith('/') && !logo.startsWith('//') ? logo : null,
      },
    ];
  });
}

const byName = new Intl.Collator('ru', { sensitivity: 'base', numeric: true });

/** The bank list in the order a payer looks for a bank: the one this browser paid with last, the six most used, then the rest by name. */
export function orderBanks(banks: readonly SbpBank[], lastUsedBankId: string | null): SbpBank[] {
  const rank = (bank: SbpBank) => {
    if (bank.id === lastUsedBankId) return -1;
    const mostUsed = (MOST_USED_BANK_IDS as readonly string[]).indexOf(bank.id);
    return mostUsed === -1 ? MOST_USED_BANK_IDS.length : mostUsed;
  };
  return [...banks].sort((a, b) => rank(a) - rank(b) || byName.compare(a.name, b.name));
}

/** How many banks lead the list before 'Все банки': the last-used one and the six most used. */
export function leadingCount(ordered: readonly SbpBank[], lastUsedBankId: string | null): number {
  const leading = new Set<string>([...MOST_USED_BANK_IDS, ...(lastUsedBankId ? [lastUsedBankId] : [])]);
  const index = ordered.findIndex((bank) => !leading.has(bank.id));
  return index === -1 ? ordered.length : index;
}

/** A name as search compares it: case, 'ё', spaces, hyphens and quotes do not matter ('альфа банк' finds АЛЬФА-БАНК). */
export const searchKey = (text: string) =>
  text
    .toLocaleLowerCase('ru')
    .replace(/ё/g, 'е')
    .replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * The banks whose name, or a name payers know it by (BANK_ALIASES), contains what the payer typed, in the list's order;
 * everything for an empty query.
 */
export function findBanks(banks: readonly SbpBank[], query: string): SbpBank[] {
  const key = searchKey(query);
  if (!key) return [...banks];
  return banks.filter((bank) => [bank.name, ...(BANK_ALIASES[bank.id] ?? [])].some((name) => searchKey(name).includes(key)));
}

const SCHEME = /^[a-z][a-z\d+.-]*:/i;

/**
 * The link that opens the bank's app with this payment. iOS: the payload with its `https:` replaced by the bank's
 * scheme. Android: an intent for the bank's package with the scheme, the payload without its scheme as the data (the
 * plain payload when the bank has no package). Elsewhere the payload itself, which lets the system choose.
 */
export function bankAppHref(bank: SbpBank, payload: string, platform: Platform): string {
  if (!/^https?:\/\//i.test(payload)) return payload;
  switch (platform) {
    case 'ios':
      return payload.replace(SCHEME, `${bank.schema}:`);
    case 'android':
      return bank.package ? `intent://${payload.replace(/^https?:\/\//i, '')}#Intent;scheme=${bank.schema};package=${bank.package};end` : payload;
    case 'other':
      return payload;
  }
}

/** The bank's web client for this payment (NSPK's convention: the client's address and the QR's id), or null. */
export function webClientHref(bank: SbpBank, payload: string): string | null {
  if (!bank.webClientUrl) return null;
  let qrId: string | undefined;
  try {
    qrId = new URL(payload).pathname.split('/').filter(Boolean).pop();
  } catch {
    return null;
  }
  return qrId ? `${bank.webClientUrl.replace(/\/+$/, '')}/${encodeURIComponent(qrId)}` : null;
}

/** Words that name no bank in particular, skipped when a bank's initials are made. */
const GENERIC_WORDS = new Set(['банк', 'кб', 'акб', 'аб', 'ао', 'пао', 'нко', 'ооо', 'ик', 'икб']);

/** The one to three letters that stand for a bank where its logo is missing: 'Сб', 'ВТБ', 'МК'. */
export function initialsOf(name: string): string {
  const words = name
    .replace(/\(.*?\)/g, ' ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const significant = words.filter((word) => !GENERIC_WORDS.has(word.toLocaleLowerCase('ru')));
  const chosen = significant.length > 0 ? significant : words;
  const [first = '', second] = chosen;
  if (second) return (first[0]! + second[0]!).toLocaleUpperCase('ru');
  // An abbreviation stays as it is written (ВТБ, ПСБ, 131); a word gives its first two letters.
  if (/^[\p{Lu}\p{N}]{2,3}$/u.test(first)) return first;
  return first.slice(0, 1).toLocaleUpperCase('ru') + first.slice(1, 2).toLocaleLowerCase('ru');
}

/** One of eight calm tile colours per bank, the same for a bank every time (its id decides). */
export function tileOf(id: string): number {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % 8;
}
