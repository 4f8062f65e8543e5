import { useFormik } from 'formik';
import { useId } from 'react';
import type { CheckoutActor } from '../machines/checkout';
import { stepMessages } from '../services/stepMessages';
import type { RegisterForm } from '../services/types';
import { registerSchema } from '../services/validation';
import { CodeStep, formDraftOf, useCodeProblem, type CodeFlowActor } from './CodeStep';
import { FlowForm } from './FlowForm';
import { PhoneField, phoneFieldOf } from './PhoneField';
import { fieldOf, TextField } from './TextField';
import { useTypedDraft } from './useTypedDraft';

const nameFields = [
  { name: 'surname', label: stepMessages.register.surname, autoComplete: 'family-name' },
  { name: 'name', label: stepMessages.register.name, autoComplete: 'given-name' },
  { name: 'patronymic', label: stepMessages.register.patronymic, autoComplete: 'additional-name' },
] as const;

/** Register: surname, name, patronymic, phone, privacy consent, the robot check and 'Продолжить'. */
export function Register({ actor }: { actor: CheckoutActor }) {
  return <CodeStep actor={actor} title={stepMessages.register.title}>{(flow) => <RegisterFields flow={flow} actor={actor} />}</CodeStep>;
}

function RegisterFields({ flow, actor }: { flow: CodeFlowActor; actor: CheckoutActor }) {
  const id = useId();
  const problem = useCodeProblem(flow);
  const formik = useFormik<RegisterForm>({
    // The consent is asked again: a box ticked for the payer is no consent, even one they had ticked before the reload.
    initialValues: { surname: '', name: '', patronymic: '', phone: '', ...formDraftOf(flow, 'register')?.form, privacy: false },
    validationSchema: registerSchema,
    onSubmit: (values) => {
      const form = { ...values, surname: values.surname.trim(), name: values.name.trim(), patronymic: values.patronymic.trim() };
      flow.send({ type: 'code.request', request: { purpose: 'register', phone: form.phone, form } });
    },
  });
  const privacyError = (formik.touched.privacy && formik.errors.privacy) || null;
  // What is typed is kept for a reload; the consent is not (it is asked again).
  useTypedDraft(actor, { form: { purpose: 'register', phone: formik.values.phone, form: { ...formik.values, privacy: false } } });

  return (
    <FlowForm flow={flow} form={formik} required={['surname', 'name', 'patronymic', 'phone', 'privacy']} problem={problem}>
      {nameFields.map((field) => (
        <TextField key={field.name} id={`${id}-${field.name}`} label={field.label} type="text" autoComplete={field.autoComplete} {...fieldOf(formik, field.name)} />
      ))}
      <PhoneField id={`${id}-phone`} {...phoneFieldOf(formik)} />
      <div className="field">
        <label className="agreement" htmlFor={`${id}-privacy`}>
          <input
            id={`${id}-privacy`}
            name="privacy"
            type="checkbox"
            checked={formik.values.privacy}
            // The consent error shows once the box was touched, also when it is unticked again.
            onChange={(event) => {
              void formik.setFieldTouched('privacy', true, false);
              void formik.setFieldValue('privacy', event.target.checked);
            }}
            onBlur={formik.handleBlur}
            aria-invalid={privacyError ? true : undefined}
            aria-describedby={privacyError ? `${id}-privacy-error` : undefined}
          />
          <span>{stepMessages.register.privacy}</span>
        </label>
        {privacyError && (
          <p className="field-error" id={`${id}-privacy-error`}>
            {privacyError}
          </p>
        )}
      </div>
    </FlowForm>
  );
}
