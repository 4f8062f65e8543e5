import type { ReactNode } from 'react';

/** A step's screen: a section named by its heading, the heading useStepFocus moves focus to when the step changes. */
export function StepSection({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <section aria-labelledby="step-title">
      <h1 id="step-title" className="step-title">
        {title}
      </h1>
      {children}
    </section>
  );
}
