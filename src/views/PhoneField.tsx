import type { FormikProps } from 'formik';
import { PatternFormat } from 'react-number-format';
import { messages } from '../services/messages';

interface Props {
  id: string;
  /** The 11 digits sent to the server ('7' and the ten typed), or '' when nothing was typed. */
  value: string;
  /** Shown under the field and tied to it with aria-describedby. */
  error: string | null;
  onChange: (digits: string) => void;
  onBlur: () => void;
  name?: string;
  disabled?: boolean;
}

/** The phone with the mask +7 (###) ###-##-## (SPEC §5); only digits leave this field. */
export function PhoneField({ id, value, error, onChange, onBlur, name = 'phone', disabled }: Props) {
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{messages.signIn.phone}</label>
      <PatternFormat
        id={id}
        name={name}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        format="+7 (###) ###-##-##"
        mask="_"
        placeholder="+7 (___) ___-__-__"
        // The leading 7 is the mask's own; the field holds the ten digits after it.
        value={value.startsWith('7') ? value.slice(1) : value}
        valueIsNumericString
        onValueChange={(values) => onChange(values.value ? `7${values.value}` : '')}
        onBlur={onBlur}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A formik form's phone field, bound: its digits, its error once touched, and the handlers that keep them. */
export function phoneFieldOf(form: Pick<FormikProps<{ phone: string }>, 'values' | 'touched' | 'errors' | 'setFieldValue' | 'setFieldTouched'>) {
  return {
    value: form.values.phone,
    error: (form.touched.phone && form.errors.phone) || null,
    onChange: (digits: string) => void form.setFieldValue('phone', digits),
    onBlur: () => void form.setFieldTouched('phone'),
  };
}
