import { messages } from '../services/messages';

/**
 * The iframe sandbox of SPEC §9: scripts, forms, popups, modals and storage access. allow-same-origin is what
 * lets the widget keep its own origin (an opaque one could neither reach its bank nor be told apart from a
 * forgery by origin); on the bank's hosts that origin is foreign to ours, so it gains nothing over our page.
 */
export const FRAME_SANDBOX = [
  'allow-scripts',
  'allow-forms',
  'allow-popups',
  'allow-modals',
  'allow-same-origin',
  'allow-storage-access-by-user-activation',
].join(' ');

export interface Overlay {
  id: string;
  frame: HTMLIFrameElement;
  close(): void;
}

function randomId(crypto: { getRandomValues<T extends ArrayBufferView>(array: T): T }): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `bank-widget-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The desktop overlay: a dimmed layer with the widget's iframe, under a random id so two openings never clash
 * and no page script can guess it; page scrolling is locked while it is open and restored on close.
 */
export function openOverlay(doc: Document, crypto: { getRandomValues<T extends ArrayBufferView>(array: T): T }, url: string): Overlay {
  const id = randomId(crypto);
  const overlay = doc.createElement('div');
  overlay.id = id;
  overlay.className = 'bank-widget-overlay';
  overlay.setAttribute('role', 'dialog');
  overlay.setAttribute('aria-modal', 'true');
  overlay.setAttribute('aria-label', messages.widget.title);

  const frame = doc.createElement('iframe');
  frame.className = 'bank-widget-frame';
  frame.title = messages.widget.title;
  frame.setAttribute('sandbox', FRAME_SANDBOX);
  frame.setAttribute('allow', 'storage-access');
  frame.src = url;
  overlay.appendChild(frame);

  const body = doc.body;
  const previousOverflow = body.style.overflow;
  body.style.overflow = 'hidden';
  body.appendChild(overlay);
  frame.focus();

  let closed = false;
  return {
    id,
    frame,
    close() {
      if (closed) return;
      closed = true;
      overlay.remove();
      body.style.overflow = previousOverflow;
    },
  };
}
