import type { ReactNode } from 'react';
import { useStepHeading } from './useStepFocus';

/**
 * A step's screen: a section named by its heading, the heading useStepFocus moves focus to when the step changes (or
 * when it appears, the step's view having loaded after the change).
 */
export function StepSection({ title, children }: { title: ReactNode; children?: ReactNode }) {
  const heading = useStepHeading();
  return (
    <section aria-labelledby="step-title">
      <h1 id="step-title" className="step-title" ref={heading}>
        {title}
      </h1>
      {children}
    </section>
  );
}
