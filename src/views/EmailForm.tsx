import { useId } from 'react';
import { messages } from '../services/messages';
import { SubmitButton } from './SubmitButton';
import { useEmailForm } from './useEmailForm';
import { TextField } from './TextField';

interface Props {
  /** The server refused the last address: the field is emptied and 'Email некорректен' shown (SPEC §5). */
  rejected: boolean;
  busy: boolean;
  onSubmit: (email: string) => void;
}

/** The receipt e-mail and the step's Continue button, as one form so Enter submits it. */
export function EmailForm({ rejected, busy, onSubmit }: Props) {
  const id = useId();
  // formik's shape without formik: this form is on every payer's first screen (see useEmailForm).
  const formik = useEmailForm((values) => onSubmit(values.email.trim()), { rejected });
  const error = (formik.touched.email || rejected) && formik.errors.email ? formik.errors.email : null;
  return (
    <form className="form" noValidate onSubmit={formik.handleSubmit}>
      <TextField
        id={`${id}-email`}
        label={messages.email.label}
        error={error}
        errorRole="alert"
        name="email"
        type="email"
        inputMode="email"
        autoComplete="email"
        value={formik.values.email}
        onChange={formik.handleChange}
        onBlur={formik.handleBlur}
      />
      <SubmitButton busy={busy || formik.submitting}>{messages.app.continue}</SubmitButton>
    </form>
  );
}
