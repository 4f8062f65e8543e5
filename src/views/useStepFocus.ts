import { useEffect, useRef } from 'react';
import { focusHeading } from './focusHeading';

/**
 * Moves focus to the new step's heading when the step changes (or the payer signs in or out: `stepName` names both),
 * so keyboard and screen-reader users land at the top of what just appeared instead of on a button that no longer
 * exists. The first step keeps the page's natural focus: nothing is stolen on load.
 */
export function useStepFocus(stepName: string, headingId = 'step-title') {
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (!stepName) return;
    const previous = shown.current;
    shown.current = stepName;
    if (previous === null || previous === stepName) return;
    const focusStepHeading = () => {
      const heading = document.getElementById(headingId);
      if (!heading) return false;
      // A step that put focus somewhere of its own keeps it.
      const active = document.activeElement;
      if (active && active !== document.body && heading.closest('section')?.contains(active)) return true;
      return focusHeading(heading);
    };
    if (focusStepHeading()) return;
    // A step whose view is still loading (lazy) shows its heading a moment later.
    const observer = new MutationObserver(() => {
      if (focusStepHeading()) observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true });
    const giveUp = setTimeout(() => observer.disconnect(), 5000);
    return () => {
      observer.disconnect();
      clearTimeout(giveUp);
    };
  }, [stepName, headingId]);
}
