import { useSelector } from '@xstate/react';
import { useFormik } from 'formik';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { CheckoutActor } from '../machines/checkout';
import type { registerMachine } from '../machines/register';
import { messages } from '../services/messages';
import type { RegisterForm } from '../services/types';
import { registerSchema } from '../services/validation';
import { FlowCaptcha, useCaptchaPending } from './Captcha';
import { FormProblem } from './FormProblem';
import { PhoneField } from './PhoneField';

type RegisterActor = ActorRefFrom<typeof registerMachine>;

const nameFields = [
  { name: 'surname', label: messages.register.surname, autoComplete: 'family-name' },
  { name: 'name', label: messages.register.name, autoComplete: 'given-name' },
  { name: 'patronymic', label: messages.register.patronymic, autoComplete: 'additional-name' },
] as const;

/** Register (SPEC §2): surname, name, patronymic, phone, privacy consent, the robot check and 'Продолжить'. */
export function Register({ actor }: { actor: CheckoutActor }) {
  const flow = useSelector(actor, (state) => state.children.register as RegisterActor | undefined);
  return (
    <section aria-labelledby="step-title">
      <h1 id="step-title" className="step-title">
        {messages.register.title}
      </h1>
      {flow && <RegisterFields flow={flow} />}
    </section>
  );
}

function RegisterFields({ flow }: { flow: RegisterActor }) {
  const id = useId();
  const busy = useSelector(flow, (state) => state.hasTag('busy'));
  const captchaPending = useCaptchaPending(flow);
  // Why no code went out (SPEC §9 resend wait, or a refusal): without it the payer would see nothing happen.
  const sendError = useSelector(flow, (state) => state.context.error);
  const formik = useFormik<RegisterForm>({
    initialValues: { surname: '', name: '', patronymic: '', phone: '', privacy: false },
    validationSchema: registerSchema,
    onSubmit: (values) =>
      flow.send({
        type: 'register.submit',
        form: { ...values, surname: values.surname.trim(), name: values.name.trim(), patronymic: values.patronymic.trim() },
      }),
  });
  const errorOf = (field: keyof RegisterForm) => (formik.touched[field] && formik.errors[field]) || null;
  const privacyError = errorOf('privacy');

  return (
    <form className="form" noValidate onSubmit={formik.handleSubmit} aria-busy={busy}>
      {nameFields.map((field) => {
        const error = errorOf(field.name);
        return (
          <div className="field" key={field.name}>
            <label htmlFor={`${id}-${field.name}`}>{field.label}</label>
            <input
              id={`${id}-${field.name}`}
              name={field.name}
              type="text"
              autoComplete={field.autoComplete}
              value={formik.values[field.name]}
              onChange={formik.handleChange}
              onBlur={formik.handleBlur}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-${field.name}-error` : undefined}
            />
            {error && (
              <p className="field-error" id={`${id}-${field.name}-error`}>
                {error}
              </p>
            )}
          </div>
        );
      })}
      <PhoneField
        id={`${id}-phone`}
        value={formik.values.phone}
        error={errorOf('phone')}
        onChange={(digits) => void formik.setFieldValue('phone', digits)}
        onBlur={() => void formik.setFieldTouched('phone')}
      />
      <div className="field">
        <label className="agreement" htmlFor={`${id}-privacy`}>
          <input
            id={`${id}-privacy`}
            name="privacy"
            type="checkbox"
            checked={formik.values.privacy}
            // The consent error shows once the box was touched (SPEC §5), also when it is unticked again.
            onChange={(event) => {
              void formik.setFieldTouched('privacy', true, false);
              void formik.setFieldValue('privacy', event.target.checked);
            }}
            onBlur={formik.handleBlur}
            aria-invalid={privacyError ? true : undefined}
            aria-describedby={privacyError ? `${id}-privacy-error` : undefined}
          />
          <span>{messages.register.privacy}</span>
        </label>
        {privacyError && (
          <p className="field-error" id={`${id}-privacy-error`}>
            {privacyError}
          </p>
        )}
      </div>
      <FlowCaptcha flow={flow} />
      <FormProblem
        submitted={formik.submitCount > 0}
        valid={formik.isValid}
        values={formik.values as unknown as Record<string, unknown>}
        required={['surname', 'name', 'patronymic', 'phone', 'privacy']}
      />
      {sendError && (
        <p className="form-error" role="alert">
          {sendError}
        </p>
      )}
      <button type="submit" className="button primary" disabled={busy || captchaPending}>
        {messages.app.continue}
      </button>
    </form>
  );
}
