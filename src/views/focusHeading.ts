/**
 * Moves focus to a heading, so keyboard and screen-reader users land at the top of what just appeared instead of on a
 * button that no longer exists. Focusable by script only (tabindex -1): the heading is no stop in the Tab order.
 */
export function focusHeading(heading: HTMLElement | null | undefined): boolean {
  if (!heading) return false;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus();
  return true;
}
