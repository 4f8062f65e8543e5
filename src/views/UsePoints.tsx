import { useSelector } from '@xstate/react';
import { useFormik } from 'formik';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { CheckoutActor } from '../machines/checkout';
import { clampPoints, type usePointsMachine } from '../machines/usePoints';
import { formatPoints } from '../services/format';
import { messages } from '../services/messages';
import { pointsSchema } from '../services/validation';
import { FlowCaptcha, useCaptchaPending } from './Captcha';
import { FormProblem } from './FormProblem';

type UsePointsActor = ActorRefFrom<typeof usePointsMachine>;

const t = messages.points;

/** The points screen (SPEC §2): totals, how many to spend, the robot check when asked, 'Использовать баллы'. */
export function UsePoints({ actor }: { actor: CheckoutActor }) {
  const flow = useSelector(actor, (state) => state.children.usePoints as UsePointsActor | undefined);
  const available = useSelector(actor, (state) => state.context.bill.availablePoints);
  return (
    <section aria-labelledby="step-title">
      <h1 id="step-title" className="step-title">
        {t.blockTitle}
      </h1>
      {flow && <PointsForm flow={flow} available={available} />}
    </section>
  );
}

function PointsForm({ flow, available }: { flow: UsePointsActor; available: number }) {
  const id = useId();
  const unavailable = useSelector(flow, (state) => state.matches('unavailable'));
  const maxPoints = useSelector(flow, (state) => state.context.maxPoints);
  const chosen = useSelector(flow, (state) => state.context.points);
  const flowError = useSelector(flow, (state) => state.context.error);
  const busy = useSelector(flow, (state) => state.hasTag('busy'));
  const captchaPending = useCaptchaPending(flow);

  const formik = useFormik<{ points: number | '' }>({
    initialValues: { points: chosen ?? maxPoints },
    validationSchema: pointsSchema,
    onSubmit: (values) => flow.send({ type: 'points.submit', points: values.points === '' ? null : Number(values.points) }),
  });

  if (unavailable) {
    return <p className="empty-note">{t.none}</p>;
  }

  const error = (formik.touched.points && formik.errors.points) || flowError;
  return (
    <>
      <dl className="payment-info">
        <div className="payment-info-row">
          <dt>{t.total}</dt>
          <dd>{formatPoints(available)}</dd>
        </div>
        <div className="payment-info-row">
          <dt>{t.canUse}</dt>
          <dd>{formatPoints(maxPoints)}</dd>
        </div>
      </dl>
      <form className="form" noValidate onSubmit={formik.handleSubmit} aria-busy={busy}>
        <div className="field">
          <label htmlFor={`${id}-points`}>{t.input}</label>
          <input
            id={`${id}-points`}
            name="points"
            type="number"
            inputMode="numeric"
            min={0}
            max={maxPoints}
            step={1}
            value={formik.values.points}
            onChange={formik.handleChange}
            onBlur={(event) => {
              formik.handleBlur(event);
              // Clamped to 0…maximum as the payer leaves the field (SPEC §5), so they see what will be spent.
              if (formik.values.points !== '') void formik.setFieldValue('points', clampPoints(Number(formik.values.points), maxPoints));
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-points-error` : undefined}
          />
          {error && (
            <p className="field-error" id={`${id}-points-error`}>
              {error}
            </p>
          )}
        </div>
        <FlowCaptcha flow={flow} />
        <FormProblem submitted={formik.submitCount > 0} valid={formik.isValid} values={formik.values} required={['points']} />
        <button type="submit" className="button primary" disabled={busy || captchaPending}>
          {t.use}
        </button>
      </form>
    </>
  );
}
