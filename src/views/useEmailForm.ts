import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ChangeEvent, type FocusEvent, type FormEvent } from 'react';
import { messages } from '../services/messages';

interface Values {
  email: string;
}
type Errors = Partial<Record<keyof Values, string>>;

/**
 * The receipt e-mail form's state, shaped like formik's (values, touched, errors, handlers) but without it: this
 * form is on every payer's first screen, and formik with its helpers is about 11 KB gzip of the first load
 * (budget in docs/benchmarks.md). Same rules as formik's defaults: checked on change and on blur, errors shown
 * once touched, submit touches and checks first. Same yup schema, loaded with the first check.
 *
 * `initial` prefills the field; `rejected` says the server refused the address: the field is emptied and
 * 'Email некорректен' shown; `onType` hears every change the payer types (kept for a reload). `submitting` is true from the submit until the check is done, so the button
 * shows it is busy at once, before the schema's chunk has arrived on a slow network.
 */
export function useEmailForm(
  onSubmit: (values: Values) => void,
  { initial = '', rejected = false, onType }: { initial?: string; rejected?: boolean; onType?: (email: string) => void } = {},
) {
  const [values, setValues] = useState<Values>({ email: initial });
  const [touched, setTouched] = useState<Partial<Record<keyof Values, boolean>>>({});
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  const current = useRef(values);
  // Only the newest check may set the errors; an error set by hand cancels checks still running.
  const latestCheck = useRef(0);

  const validate = useCallback(async (next: Values): Promise<Errors> => {
    const check = ++latestCheck.current;
    let found: Errors = {};
    try {
      const { emailFormSchema } = await import('../services/validation');
      await emailFormSchema.validate(next);
    } catch (error) {
      // A schema refusal; if the schema itself could not load, the server still checks the address.
      if ((error as Error).name === 'ValidationError') found = { email: (error as Error).message };
    }
    if (check === latestCheck.current) setErrors(found);
    return found;
  }, []);

  const setFieldValue = useCallback(
    (field: keyof Values, value: string, shouldValidate = true) => {
      current.current = { ...current.current, [field]: value };
      setValues(current.current);
      return shouldValidate ? validate(current.current) : Promise.resolve({});
    },
    [validate],
  );

  const setFieldError = useCallback((field: keyof Values, message: string | undefined) => {
    latestCheck.current++;
    setErrors((previous) => ({ ...previous, [field]: message }));
  }, []);

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    void setFieldValue(event.target.name as keyof Values, event.target.value);
    onType?.(event.target.value);
  };

  const handleBlur = (event: FocusEvent<HTMLInputElement>) => {
    setTouched((previous) => ({ ...previous, [event.target.name]: true }));
    void validate(current.current);
  };

  const handleSubmit = (event?: FormEvent) => {
    event?.preventDefault();
    setTouched({ email: true });
    setSubmitting(true);
    const submitted = current.current;
    void validate(submitted).then((found) => {
      setSubmitting(false);
      if (Object.keys(found).length === 0) onSubmit(submitted);
    });
  };

  // The field as the server rendered it may hold what the payer typed before the page's script hydrated it: that text is
  // theirs, taken as if typed now (React keeps the value in the field but not in this state), and kept for a reload
  // like any typing. The server renders the field empty, so an empty one holds nothing typed: this tab's draft
  // (`initial`, after a reload) stays.
  const field = useRef<HTMLInputElement>(null);
  const heard = useRef(onType);
  heard.current = onType;
  useLayoutEffect(() => {
    const typed = field.current?.value;
    if (!typed || typed === current.current.email) return;
    void setFieldValue('email', typed);
    heard.current?.(typed);
  }, [setFieldValue]);

  useEffect(() => {
    if (!rejected) return;
    void setFieldValue('email', '', false);
    setFieldError('email', messages.validation.emailRejected);
  }, [rejected, setFieldValue, setFieldError]);

  return { values, touched, errors, submitting, field, handleChange, handleBlur, handleSubmit, setFieldValue, setFieldError };
}
