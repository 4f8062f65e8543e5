/** What the server tells the page through its meta tags (server/routes/pages.ts fills them). */
export interface PageConfig {
  product: 'realty' | 'auto';
  /** Base URL of the provider host's calls; '' is this origin. */
  providerBase: string;
  environment: 'local' | 'local-https' | 'test' | 'preprod' | 'production';
  captchaSiteKey: string | null;
  freeCallNumber: string;
  objectOID: string | null;
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
    freeCallNumber: parsed.freeCallNumber ?? '',
    objectOID: parsed.objectOID ?? null,
  };
}

/** Reads a cookie the page may see (not HttpOnly), such as manager_id. */
export function readCookie(name: string, cookies: string = document.cookie): string | null {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}
