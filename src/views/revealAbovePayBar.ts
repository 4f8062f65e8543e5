/**
 * Brings what a tap made appear (an error) into view. On a phone the Pay bar stays at the bottom of the screen over
 * the form, so the element is brought up above it as well, with a little room: an error under the bar is no answer.
 */
export function revealAbovePayBar(element: HTMLElement | null) {
  if (!element) return;
  // jsdom has no scrolling; a browser always has scrollIntoView.
  element.scrollIntoView?.({ block: 'nearest' });
  const bar = document.querySelector<HTMLElement>('.pay-bar');
  if (!bar || getComputedStyle(bar).position !== 'sticky') return;
  const covered = element.getBoundingClientRect().bottom - bar.getBoundingClientRect().top;
  if (covered > 0) window.scrollBy({ top: covered + ROOM_PX });
}

/** The space left between the element and the bar. */
const ROOM_PX = 12;
