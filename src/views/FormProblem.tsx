import { formProblem } from '../services/validation';

interface Props {
  submitted: boolean;
  valid: boolean;
  values: Record<string, unknown>;
  required: readonly string[];
}

/** The form-level line of SPEC §5 after a submit that did not pass validation, announced as an alert. */
export function FormProblem({ submitted, valid, values, required }: Props) {
  if (!submitted || valid) return null;
  return (
    <p className="form-error" role="alert">
      {formProblem(values, required)}
    </p>
  );
}
