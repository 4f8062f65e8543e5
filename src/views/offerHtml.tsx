import { Fragment, type ReactNode } from 'react';

/** Tags the offer text may use; anything else keeps only its text. Attributes are dropped, links keep a web href. */
const allowed = new Set(['h2', 'h3', 'h4', 'p', 'ul', 'ol', 'li', 'b', 'strong', 'i', 'em', 'br', 'a']);

function toReact(node: Node, key: number): ReactNode {
  if (node.nodeType === 3) return node.textContent;
  if (node.nodeType !== 1) return null;
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  const children = Array.from(element.childNodes, toReact);
  if (tag === 'script' || tag === 'style') return null;
  if (!allowed.has(tag)) return <Fragment key={key}>{children}</Fragment>;
  if (tag === 'br') return <br key={key} />;
  if (tag === 'a') {
    const href = element.getAttribute('href') ?? '';
    const safe = /^https?:\/\//i.test(href) ? href : undefined;
    return (
      <a key={key} href={safe} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    );
  }
  const Tag = tag as 'p';
  return <Tag key={key}>{children}</Tag>;
}

/**
 * The offer text arrives as HTML (the offer call's OfferDescription). It is parsed, never injected: only a few text
 * tags survive, so whatever the server relays cannot run script or restyle the page.
 */
export function OfferText({ html }: { html: string }) {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  return <>{Array.from(body.childNodes, toReact)}</>;
}
