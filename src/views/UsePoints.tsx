import { useSelector } from './useSelector';
import { useFormik } from 'formik';
import { useId } from 'react';
import { derive, type CheckoutActor } from '../machines/checkout';
import { formatPoints } from '../services/format';
import { messages } from '../services/messages';
import { stepMessages } from '../services/stepMessages';
import { clampPoints } from '../services/pricing';
import { pointsSchema } from '../services/validation';
import { useCodeFlow, useCodeProblem, type CodeFlowActor } from './CodeStep';
import { FlowForm } from './FlowForm';
import { StepSection } from './StepSection';
import { fieldOf, TextField } from './TextField';

const t = messages.points;

/** The points screen: totals, how many to spend, the robot check when asked, 'Использовать баллы'. */
export function UsePoints({ actor }: { actor: CheckoutActor }) {
  const unavailable = useSelector(actor, (state) => state.matches({ usePoints: 'unavailable' }));
  const flow = useCodeFlow(actor);
  return (
    <StepSection title={t.blockTitle}>
      {unavailable ? <p className="empty-note">{stepMessages.usePoints.none}</p> : flow && <PointsForm actor={actor} flow={flow} />}
    </StepSection>
  );
}

function PointsForm({ actor, flow }: { actor: CheckoutActor; flow: CodeFlowActor }) {
  const id = useId();
  const available = useSelector(actor, (state) => state.context.bill.availablePoints);
  const maxPoints = useSelector(actor, (state) => derive.maxPoints(state.context));
  const chosen = useSelector(actor, (state) => state.context.pointsToUse);
  const problem = useCodeProblem(flow);

  const formik = useFormik<{ points: number | '' }>({
    initialValues: { points: chosen ?? maxPoints },
    validationSchema: pointsSchema(maxPoints),
    // The schema refuses an empty field ('Заполните поле'), so a submit always has a number.
    onSubmit: (values) => actor.send({ type: 'points.use', points: Number(values.points) }),
  });

  return (
    <>
      <dl className="payment-info">
        <div className="payment-info-row">
          <dt>{stepMessages.usePoints.total}</dt>
          <dd>{formatPoints(available)}</dd>
        </div>
        <div className="payment-info-row">
          <dt>{t.canUse}</dt>
          <dd>{formatPoints(maxPoints)}</dd>
        </div>
      </dl>
      <FlowForm flow={flow} form={formik} required={['points']} problem={problem} label={t.use}>
        <TextField
          id={`${id}-points`}
          label={stepMessages.usePoints.input}
          type="number"
          inputMode="numeric"
          min={0}
          max={maxPoints}
          step={1}
          {...fieldOf(formik, 'points')}
          onBlur={(event) => {
            formik.handleBlur(event);
            // Below zero or a fraction is clamped as the payer leaves the field, so they see what will be
            // spent; above the maximum stays as typed, with the schema's 'Можно списать не более N баллов'.
            const typed = formik.values.points;
            if (typed !== '' && Number(typed) <= maxPoints) void formik.setFieldValue('points', clampPoints(Number(typed), maxPoints));
          }}
        />
      </FlowForm>
    </>
  );
}
