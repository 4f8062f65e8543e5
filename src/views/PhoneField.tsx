import type { FormikProps } from 'formik';
import { NumberFormatBase, removePatternFormat, usePatternFormat, type ChangeMeta } from 'react-number-format';
import { stepMessages } from '../services/stepMessages';

const MASK = '+7 (###) ###-##-##';
/** Where the first digit of the number goes: after the mask's '+7 ('. */
const FIRST_SLOT = MASK.indexOf('#');

/** A Russian number's prefix as people write it: the trunk 8, or the country code 7 of +7. */
const startsWithPrefix = (digits: string) => /^[78]/.test(digits);

/**
 * The ten digits after +7 from what the field now holds. A number is often typed or pasted with its
 * prefix (`8999…`, `+7999…`, `8 (999) 000-00-02`); the mask already shows the +7, so a 7 or an 8 that starts the
 * number is that prefix and is dropped (the number itself starts with 9). An edit inside the formatted
 * number is read as react-number-format's own mask reads it.
 */
export function nationalDigits(value: string, meta: ChangeMeta | undefined): string {
  const lastValue = meta?.lastValue ?? '';
  const replacedAll = !meta || lastValue === '' || meta.from.end - meta.from.start === lastValue.length;
  if (replacedAll) {
    // Typed into an empty field, pasted or autofilled over it: whatever the punctuation, only the digits count.
    const digits = value.replace(/\D/g, '');
    return startsWithPrefix(digits) ? digits.slice(1) : digits;
  }
  const digits = removePatternFormat(value, meta, { format: MASK });
  // The edit starts the number when no digit of the number stands before it.
  const startsNumber = !/\d/.test(lastValue.slice(FIRST_SLOT, meta.from.start));
  const inserted = value.slice(meta.to.start, meta.to.end).replace(/\D/g, '');
  return startsNumber && startsWithPrefix(inserted) ? digits.slice(1) : digits;
}

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

/** The phone with the mask +7 (###) ###-##-##; only digits leave this field; a typed or pasted 8 or +7 is the prefix. */
export function PhoneField({ id, value, error, onChange, onBlur, name = 'phone', disabled }: Props) {
  const errorId = `${id}-error`;
  const pattern = usePatternFormat({
    format: MASK,
    mask: '_',
    // The leading 7 is the mask's own; the field holds the ten digits after it.
    value: value.startsWith('7') ? value.slice(1) : value,
    valueIsNumericString: true,
  });
  return (
    <div className="field">
      <label htmlFor={id}>{stepMessages.signIn.phone}</label>
      <NumberFormatBase
        {...pattern}
        removeFormatting={nationalDigits}
        id={id}
        name={name}
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        placeholder="+7 (___) ___-__-__"
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
