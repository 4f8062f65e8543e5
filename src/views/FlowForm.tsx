import { useSelector } from './useSelector';
import type { FormEvent, ReactNode } from 'react';
import { messages } from '../services/messages';
import { FlowCaptcha, useCaptchaPending, type RobotCheckFlow } from './Captcha';
import { FormProblem } from './FormProblem';

interface Props<Values extends object> {
  flow: RobotCheckFlow;
  /** The form's state and submit (formik's), for the incomplete-form line. */
  form: { submitCount: number; isValid: boolean; values: Values; handleSubmit: (event?: FormEvent<HTMLFormElement>) => void };
  required: readonly (keyof Values)[];
  /** Why the flow's last call came to nothing, worded from the catalogue; null while nothing went wrong. */
  problem: ReactNode;
  label?: string;
  /** The form's fields. */
  children: ReactNode;
}

/**
 * An account form (sign-in, forgot password, register, points): its fields, then the flow's robot check, the
 * form-level line, why nothing happened, and the button, which waits while the flow is busy or the check
 * is pending (a form is busy while its request or the robot check is).
 */
export function FlowForm<Values extends object>({ flow, form, required, problem, label = messages.app.continue, children }: Props<Values>) {
  const busy = useSelector(flow, (state) => state.hasTag('busy'));
  const captchaPending = useCaptchaPending(flow);
  return (
    <form className="form" noValidate onSubmit={form.handleSubmit} aria-busy={busy}>
      {children}
      <FlowCaptcha flow={flow} />
      <FormProblem submitted={form.submitCount > 0} valid={form.isValid} values={form.values} required={required} />
      {problem && (
        <div className="form-error" role="alert">
          {problem}
        </div>
      )}
      <button type="submit" className="button primary" disabled={busy || captchaPending}>
        {label}
      </button>
    </form>
  );
}
