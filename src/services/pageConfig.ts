/** What the server tells the page through its meta tags (server/routes/pages.ts fills them). */
export interface PageConfig {
  product: 'realty' | 'auto';
  /** Base URL of the provider host's calls; '' is this origin. */
  providerBase: string;
  environment: 'local' | 'local-https' | 'test' | 'preprod' | 'production';
  captchaSiteKey: string | null;
  /** The bill's public link id (the page's one name for the bill it opens), null off a checkout. */
  billLink: string | null;
  /** Who takes the money and how to reach them: the page's header shows them. '' when not configured. */
  merchant: Merchant;
  /** The result page's link back to the merchant's shop (the bill's returnUrl); null without one. */
  returnUrl: string | null;
  /** How often to ask for a payment's status or a free call's outcome, when the server sets it (tests do); else null. */
  pollMs: number | null;
}

export interface Merchant {
  name: string;
  supportPhone: string;
  supportEmail: string;
}

const metaContent = (doc: Document, name: string) => doc.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';

export function readCsrfToken(doc: Document = document): string {
  return metaContent(doc, 'csrf-token');
}

export function readPageConfig(doc: Document = document): PageConfig {
  const raw = metaContent(doc, 'config');
  const parsed = (raw ? JSON.parse(raw) : {}) as Partial<PageConfig>;
  return {
    product: parsed.product === 'auto' ? 'auto' : 'realty',
    providerBase: parsed.providerBase ?? '',
    environment: parsed.environment ?? 'local',
    captchaSiteKey: parsed.captchaSiteKey ?? null,
    billLink: parsed.billLink ?? null,
    merchant: {
      name: parsed.merchant?.name ?? '',
      supportPhone: parsed.merchant?.supportPhone ?? '',
      supportEmail: parsed.merchant?.supportEmail ?? '',
    },
    returnUrl: safeReturnUrl(parsed.returnUrl),
    pollMs: typeof parsed.pollMs === 'number' && Number.isFinite(parsed.pollMs) && parsed.pollMs > 0 ? parsed.pollMs : null,
  };
}

/** Only an http(s) address may become the link back to the shop (never `javascript:` or the like). */
export function safeReturnUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * What a manager id may look like (manager_id comes from a cookie): letters, digits, '_', '.' and '-', at
 * most 64. The server refuses any other in the payment request, so the page does not send a cookie that does not fit.
 */
export const MANAGER_ID_PATTERN = '^[A-Za-z0-9_.-]{1,64}$';
const managerIdRegExp = new RegExp(MANAGER_ID_PATTERN);

/** The manager_id cookie when it fits MANAGER_ID_PATTERN, else null. */
export function readManagerId(cookies: string = document.cookie): string | null {
  const value = readCookie('manager_id', cookies);
  return value !== null && managerIdRegExp.test(value) ? value : null;
}

/** Reads a cookie the page may see (not HttpOnly), such as manager_id. */
export function readCookie(name: string, cookies: string = document.cookie): string | null {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(rest.join('='));
    } catch {
      // A malformed escape (set by some other script) is no value at all.
      return null;
    }
  }
  return null;
}
