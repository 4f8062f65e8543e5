import { formProblem } from '../services/validation';

interface Props<Values extends object> {
  submitted: boolean;
  valid: boolean;
  values: Values;
  required: readonly (keyof Values)[];
}

/**
 * The form-level line after a submit that did not pass validation ('Форма заполнена не полностью.' or 'Извините, не все
 * поля заполнены корректно.'), announced as an alert.
 */
export function FormProblem<Values extends object>({ submitted, valid, values, required }: Props<Values>) {
  if (!submitted || valid) return null;
  return (
    <p className="form-error" role="alert">
      {formProblem(values, required)}
    </p>
  );
}
