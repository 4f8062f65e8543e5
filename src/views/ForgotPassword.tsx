import { useFormik } from 'formik';
import { useId } from 'react';
import type { CheckoutActor } from '../machines/checkout';
import { stepMessages } from '../services/stepMessages';
import { forgotPasswordSchema } from '../services/validation';
import { CodeStep, formDraftOf, useCodeProblem, type CodeFlowActor } from './CodeStep';
import { FlowForm } from './FlowForm';
import { PhoneField, phoneFieldOf } from './PhoneField';
import { useTypedDraft } from './useTypedDraft';

/** Forgot password: the phone, the robot check and 'Продолжить'; a code then goes to the phone. */
export function ForgotPassword({ actor }: { actor: CheckoutActor }) {
  return <CodeStep actor={actor} title={stepMessages.forgotPassword.title}>{(flow) => <ForgotPasswordForm flow={flow} actor={actor} />}</CodeStep>;
}

function ForgotPasswordForm({ flow, actor }: { flow: CodeFlowActor; actor: CheckoutActor }) {
  const id = useId();
  const problem = useCodeProblem(flow);
  const formik = useFormik({
    initialValues: { phone: formDraftOf(flow, 'forgot-password')?.phone ?? '' },
    validationSchema: forgotPasswordSchema,
    onSubmit: (values) => flow.send({ type: 'code.request', request: { purpose: 'forgot-password', phone: values.phone } }),
  });
  useTypedDraft(actor, { form: { purpose: 'forgot-password', phone: formik.values.phone } });

  return (
    <FlowForm flow={flow} form={formik} required={['phone']} problem={problem}>
      <PhoneField id={`${id}-phone`} {...phoneFieldOf(formik)} />
    </FlowForm>
  );
}
