import type { FormikProps } from 'formik';
import type { InputHTMLAttributes, Ref } from 'react';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id: string;
  label: string;
  /** Shown under the field and tied to it with aria-describedby; null while the value is fine. */
  error: string | null;
  /** The e-mail's server refusal is announced at once (an alert); field errors otherwise are read with the field. */
  errorRole?: 'alert';
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input with its error under it. */
export function TextField({ id, label, error, errorRole, ...input }: Props) {
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} />
      {error && (
        <p className="field-error" id={errorId} role={errorRole}>
          {error}
        </p>
      )}
    </div>
  );
}

type BoundForm<Values> = Pick<FormikProps<Values>, 'values' | 'touched' | 'errors' | 'handleChange' | 'handleBlur'>;

/** A formik field's TextField props: its name, value and handlers, and its error once the field was touched. */
export function fieldOf<Name extends string, Values extends Record<Name, string | number>>(form: BoundForm<Values>, name: Name) {
  const error = form.touched[name] && form.errors[name];
  return { name, value: form.values[name], onChange: form.handleChange, onBlur: form.handleBlur, error: typeof error === 'string' ? error : null };
}
