import { useSelector } from './useSelector';
import { useFormik } from 'formik';
import { useEffect, useId, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { CheckoutActor } from '../machines/checkout';
import type { SignInFailure, signInMachine } from '../machines/signIn';
import { stepMessages } from '../services/stepMessages';
import { signInSchema } from '../services/validation';
import { FlowForm } from './FlowForm';
import { focusHeading } from './focusHeading';
import { PhoneField, phoneFieldOf } from './PhoneField';
import { fieldOf, TextField } from './TextField';
import { useTypedDraft } from './useTypedDraft';

type SignInActor = ActorRefFrom<typeof signInMachine>;

const t = stepMessages.signIn;

/** The sign-in form of the account step with the notices after a password reset or a registration. */
export function SignInForm({ actor }: { actor: CheckoutActor }) {
  const flow = useSelector(actor, (state) => state.children.signIn);
  const notice = useSelector(actor, (state) => state.context.notice);

  return (
    <div className="sign-in">
      <h2 className="section-title">{t.title}</h2>
      <div role="status" aria-live="polite" className="live">
        {notice && <p className="notice">{notice === 'new password sent' ? t.newPasswordSent : t.registrationSuccess}</p>}
      </div>
      {flow && <SignInFields flow={flow} actor={actor} />}
    </div>
  );
}

function SignInFields({ flow, actor }: { flow: SignInActor; actor: CheckoutActor }) {
  const id = useId();
  const failure = useSelector(flow, (state) => state.context.failure);
  // After a registration or a new password: the phone the password went to, so only the password is left to type.
  const phone = useSelector(actor, (state) => state.context.typed.signInPhone ?? '');
  const prefilled = useSelector(actor, (state) => state.context.notice !== null) && phone !== '';
  const password = useRef<HTMLInputElement>(null);

  const formik = useFormik({
    initialValues: { phone, password: '' },
    validationSchema: signInSchema,
    onSubmit: (values) => flow.send({ type: 'signIn.submit', phone: values.phone, password: values.password }),
  });
  // The phone typed is kept for a reload; the password never is.
  useTypedDraft(actor, { signInPhone: formik.values.phone });
  // Once, when the form opens with the phone given.
  const focusPassword = useRef(prefilled);
  useEffect(() => {
    if (focusPassword.current) password.current?.focus();
  }, []);

  const goTo = (step: 'forgotPassword' | 'register') => (event: React.MouseEvent) => {
    event.preventDefault();
    actor.send({ type: 'nav.goTo', step });
  };

  return (
    <FlowForm flow={flow} form={formik} required={['phone', 'password']} problem={failure && <FailureNotice failure={failure} flow={flow} />}>
      <PhoneField id={`${id}-phone`} {...phoneFieldOf(formik)} />
      <TextField id={`${id}-password`} ref={password} label={t.password} type="password" autoComplete="current-password" {...fieldOf(formik, 'password')} />
      <div className="account-links">
        <a className="link" href="#/forgot-password" onClick={goTo('forgotPassword')}>
          {t.forgot}
        </a>
        <a className="link" href="#/register" onClick={goTo('register')}>
          {t.register}
        </a>
      </div>
    </FlowForm>
  );
}

/**
 * Why signing in failed: the catalogue's 'Не удалось авторизоваться' as the error's heading, and the server's reason
 * under it. Focus goes to the heading after every refused try, so the payer hears it and starts from there.
 */
/** The reason of a refused sign-in, from its status (and whether the robot check was asked for). */
function reasonOf(failure: SignInFailure, robotCheck: boolean): keyof typeof t.failures {
  if (failure.status === 401) return 'wrong phone or password';
  if (failure.status === 429) return 'too many tries';
  return robotCheck && failure.status !== 0 ? 'robot check' : 'unavailable';
}

function FailureNotice({ failure, flow }: { failure: SignInFailure; flow: SignInActor }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Each refused try is a new answer, even with the same reason: the try's end (busy no more) moves focus again.
  const busy = useSelector(flow, (state) => state.hasTag('busy'));
  const robotCheck = useSelector(flow, (state) => state.context.showCaptcha);
  useEffect(() => {
    if (!busy) focusHeading(heading.current);
  }, [busy]);
  return (
    <>
      <h3 className="form-error-title" ref={heading}>
        {t.failed}
      </h3>
      <p>{t.failures[reasonOf(failure, robotCheck)]}</p>
    </>
  );
}
