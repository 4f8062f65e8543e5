import { stepMessages } from '../services/stepMessages';

/**
 * The iframe's sandbox: scripts, forms, popups, modals and storage access. allow-same-origin is what
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
 * and no page script can guess it; page scrolling is locked while it is open and restored on close. It is a modal
 * dialog: a close button, Esc, and the page behind made inert, so focus stays inside until it closes;
 * focus then returns to where it was. `onClose` is how the payer asks to close it (the owner closes it then).
 */
export function openOverlay(
  doc: Document,
  crypto: { getRandomValues<T extends ArrayBufferView>(array: T): T },
  url: string,
  onClose: () => void = () => undefined,
): Overlay {
  const id = randomId(crypto);
  const overlay = doc.createElement('div');
  overlay.id = id;
  overlay.className = 'bank-widget-overlay';
  overlay.setAttribute('role', 'dialog');
  overlay.setAttribute('aria-modal', 'true');
  overlay.setAttribute('aria-label', stepMessages.widget.title);

  const closeButton = doc.createElement('button');
  closeButton.type = 'button';
  closeButton.className = 'bank-widget-close';
  closeButton.setAttribute('aria-label', stepMessages.widget.close);
  closeButton.textContent = '×';
  closeButton.addEventListener('click', onClose);

  const frame = doc.createElement('iframe');
  frame.className = 'bank-widget-frame';
  frame.title = stepMessages.widget.title;
  frame.setAttribute('sandbox', FRAME_SANDBOX);
  frame.setAttribute('allow', 'storage-access');
  frame.src = url;
  overlay.append(closeButton, frame);

  const body = doc.body;
  const previousOverflow = body.style.overflow;
  const previousFocus = doc.activeElement instanceof HTMLElement && doc.activeElement !== body ? doc.activeElement : null;
  // Everything already on the page goes inert: no Tab, click or screen reader reaches it behind the dialog.
  const behind = Array.from(body.children).filter((element) => !element.hasAttribute('inert'));
  behind.forEach((element) => element.setAttribute('inert', ''));
  body.style.overflow = 'hidden';
  body.appendChild(overlay);

  // Keys pressed inside the widget's frame are the widget's own; Esc anywhere on our page closes it.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    onClose();
  };
  // Where inert is not supported, focus that lands behind the dialog is brought back into it.
  const onFocusIn = (event: FocusEvent) => {
    if (!overlay.contains(event.target as Node)) closeButton.focus();
  };
  doc.addEventListener('keydown', onKeyDown);
  doc.addEventListener('focusin', onFocusIn);
  // The close button first: Esc and Enter work at once; Tab goes on into the widget.
  closeButton.focus();

  let closed = false;
  return {
    id,
    frame,
    close() {
      if (closed) return;
      closed = true;
      doc.removeEventListener('keydown', onKeyDown);
      doc.removeEventListener('focusin', onFocusIn);
      overlay.remove();
      behind.forEach((element) => element.removeAttribute('inert'));
      body.style.overflow = previousOverflow;
      // After the page has re-rendered (the button that opened it may have been busy, so disabled, until now).
      if (previousFocus) doc.defaultView?.setTimeout(() => previousFocus.isConnected && previousFocus.focus(), 0);
    },
  };
}
