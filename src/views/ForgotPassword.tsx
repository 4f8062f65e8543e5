import { useSelector } from '@xstate/react';
import { useFormik } from 'formik';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { CheckoutActor } from '../machines/checkout';
import type { forgotPasswordMachine } from '../machines/forgotPassword';
import { messages } from '../services/messages';
import { forgotPasswordSchema } from '../services/validation';
import { FlowCaptcha, useCaptchaPending } from './Captcha';
import { FormProblem } from './FormProblem';
import { PhoneField } from './PhoneField';

type ForgotPasswordActor = ActorRefFrom<typeof forgotPasswordMachine>;

/** Forgot password (SPEC §2): the phone, the robot check and 'Продолжить'; a code then goes to the phone. */
export function ForgotPassword({ actor }: { actor: CheckoutActor }) {
  const flow = useSelector(actor, (state) => state.children.forgotPassword as ForgotPasswordActor | undefined);
  return (
    <section aria-labelledby="step-title">
      <h1 id="step-title" className="step-title">
        {messages.forgotPassword.title}
      </h1>
      {flow && <ForgotPasswordForm flow={flow} />}
    </section>
  );
}

function ForgotPasswordForm({ flow }: { flow: ForgotPasswordActor }) {
  const id = useId();
  const busy = useSelector(flow, (state) => state.hasTag('busy'));
  const captchaPending = useCaptchaPending(flow);
  // Why no code went out (SPEC §9 resend wait, or a refusal): without it the payer would see nothing happen.
  const sendError = useSelector(flow, (state) => state.context.error);
  const formik = useFormik({
    initialValues: { phone: '' },
    validationSchema: forgotPasswordSchema,
    onSubmit: (values) => flow.send({ type: 'forgotPassword.submit', phone: values.phone }),
  });

  return (
    <form className="form" noValidate onSubmit={formik.handleSubmit} aria-busy={busy}>
      <PhoneField
        id={`${id}-phone`}
        value={formik.values.phone}
        error={(formik.touched.phone && formik.errors.phone) || null}
        onChange={(digits) => void formik.setFieldValue('phone', digits)}
        onBlur={() => void formik.setFieldTouched('phone')}
      />
      <FlowCaptcha flow={flow} />
      <FormProblem submitted={formik.submitCount > 0} valid={formik.isValid} values={formik.values} required={['phone']} />
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
