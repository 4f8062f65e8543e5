import { useSelector } from '@xstate/react';
import { useFormik } from 'formik';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { CheckoutActor } from '../machines/checkout';
import type { signInMachine } from '../machines/signIn';
import { stepMessages } from '../services/stepMessages';
import { signInSchema } from '../services/validation';
import { FlowForm } from './FlowForm';
import { PhoneField, phoneFieldOf } from './PhoneField';
import { fieldOf, TextField } from './TextField';

type SignInActor = ActorRefFrom<typeof signInMachine>;

/** The sign-in form of the reg step with the notices after a password reset or a registration. */
export function SignInForm({ actor }: { actor: CheckoutActor }) {
  const flow = useSelector(actor, (state) => state.children.signIn);
  const notice = useSelector(actor, (state) => state.context.notice);

  return (
    <div className="sign-in">
      <h2 className="section-title">{stepMessages.signIn.title}</h2>
      <div role="status" aria-live="polite" className="live">
        {notice && <p className="notice">{notice === 'new password sent' ? stepMessages.signIn.newPasswordSent : stepMessages.signIn.registrationSuccess}</p>}
      </div>
      {flow && <SignInFields flow={flow} actor={actor} />}
    </div>
  );
}

function SignInFields({ flow, actor }: { flow: SignInActor; actor: CheckoutActor }) {
  const id = useId();
  const failed = useSelector(flow, (state) => state.context.failed);

  const formik = useFormik({
    initialValues: { phone: '', password: '' },
    validationSchema: signInSchema,
    onSubmit: (values) => flow.send({ type: 'signIn.submit', phone: values.phone, password: values.password }),
  });

  const goTo = (step: 'forgotPassword' | 'register') => (event: React.MouseEvent) => {
    event.preventDefault();
    actor.send({ type: 'nav.goTo', step });
  };

  return (
    <FlowForm flow={flow} form={formik} required={['phone', 'password']} problem={failed ? stepMessages.signIn.failed : null}>
      <PhoneField id={`${id}-phone`} {...phoneFieldOf(formik)} />
      <TextField id={`${id}-password`} label={stepMessages.signIn.password} type="password" autoComplete="current-password" {...fieldOf(formik, 'password')} />
      <div className="account-links">
        <a className="link" href="#/forgot-password" onClick={goTo('forgotPassword')}>
          {stepMessages.signIn.forgot}
        </a>
        <a className="link" href="#/register" onClick={goTo('register')}>
          {stepMessages.signIn.register}
        </a>
      </div>
    </FlowForm>
  );
}
