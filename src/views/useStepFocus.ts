import { useEffect, useRef } from 'react';
import { focusHeading } from './focusHeading';

/** A step change whose heading has not appeared yet (its view's code is still loading): StepSection takes it over. */
let pending = false;

/** Focus on the step's heading, unless the step put focus somewhere of its own (the code's first box), which it keeps. */
function focusStepHeading(heading: HTMLElement | null) {
  pending = false;
  const active = document.activeElement;
  if (active && active !== document.body && heading?.closest('section')?.contains(active)) return;
  focusHeading(heading);
}

/**
 * Moves focus to the new step's heading when the step changes (or the payer signs in or out: `stepName` names both),
 * so keyboard and screen-reader users land at the top of what just appeared instead of on a button that no longer
 * exists. The first step keeps the page's natural focus: nothing is stolen on load. A step whose view is still loading
 * (lazy) gets focus when its StepSection appears (useStepHeading).
 */
export function useStepFocus(stepName: string) {
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (!stepName) return;
    const previous = shown.current;
    shown.current = stepName;
    if (previous === null || previous === stepName) return;
    pending = true;
    const heading = document.getElementById('step-title');
    if (heading) focusStepHeading(heading);
  }, [stepName]);
}

/** StepSection's side: its heading, appearing after a step change (a view that loaded late), takes the focus then. */
export function useStepHeading() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (pending) focusStepHeading(heading.current);
  }, []);
  return heading;
}
