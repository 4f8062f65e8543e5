import { useId } from 'react';
import { messages } from '../services/messages';
import { SubmitButton } from './SubmitButton';
import { useEmailForm } from './useEmailForm';
import { TextField } from './TextField';

interface Props {
  /** The server refused the last address: the field is emptied and 'Email некорректен' shown. */
  rejected: boolean;
  busy: boolean;
  /** What the field shows first: what the payer typed before a reload. */
  initial?: string;
  onType?: (email: string) => void;
  onSubmit: (email: string) => void;
}

/** The receipt e-mail and the step's Continue button, as one form so Enter submits it. */
export function EmailForm({ rejected, busy, initial, onType, onSubmit }: Props) {
  // formik's shape without formik: this form is on every payer's first screen (see useEmailForm).
  const formik = useEmailForm((values) => onSubmit(values.email.trim()), { rejected, initial, onType });
  return (
    <form className="form" noValidate onSubmit={formik.handleSubmit}>
      <ReceiptEmailField form={formik} rejected={rejected} />
      <SubmitButton busy={busy || formik.submitting}>{messages.app.continue}</SubmitButton>
    </form>
  );
}

/**
 * The receipt e-mail field of a useEmailForm form (the first step's, and the payment step's where it stays editable):
 * its error once touched, or at once when the server refused the address.
 */
export function ReceiptEmailField({ form, rejected, disabled }: { form: ReturnType<typeof useEmailForm>; rejected: boolean; disabled?: boolean }) {
  const id = useId();
  const error = (form.touched.email || rejected) && form.errors.email ? form.errors.email : null;
  return (
    <TextField
      id={`${id}-email`}
      ref={form.field}
      label={messages.email.label}
      error={error}
      errorRole="alert"
      name="email"
      type="email"
      inputMode="email"
      autoComplete="email"
      value={form.values.email}
      onChange={form.handleChange}
      onBlur={form.handleBlur}
      disabled={disabled}
    />
  );
}
