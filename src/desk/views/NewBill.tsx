import { useSelector } from '../../views/useSelector';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { NewBillActor } from '../machines/newBill';
import { formatMoney } from '../services/format';
import { deskMessages, measureNames, paymentMethodNames, paymentObjectNames, vatNames } from '../services/messages';
import { draftTotal, emptyDraft, newBillBody, newPosition, schemaOfForm, type BillDraft, type PositionDraft } from '../services/newBillDraft';
import { russianFields } from '../services/problems';
import type { BillForm } from '../services/types';
import { Field, fieldProblem, LoadFailed, Loading, PageTitle } from './common';

const m = deskMessages.newBill;

const LABELS: Record<string, string> = {
  purpose: m.purpose,
  'amount.value': m.total,
  amount: m.total,
  'customer.name': m.name,
  'customer.phone': m.phone,
  'customer.email': m.email,
  expiresAt: m.expires,
  parts: m.parts,
  'parts.minimum.value': m.partMinimum,
  'parts.minimum': m.partMinimum,
  capture: m.capture,
  items: m.positions,
  name: m.itemName,
  quantity: m.quantity,
  price: m.price,
  'price.value': m.price,
  vat: m.vat,
  paymentMethod: m.paymentMethod,
  paymentObject: m.paymentObject,
  measure: m.measure,
};

/** A field of the API's body as the form labels it ('items[1].price.value' → 'Позиция 2, Цена, руб.'). */
function fieldLabel(field: string): string {
  const item = /^items\[(\d+)\]\.(.+)$/.exec(field);
  if (item) return `${m.position(Number(item[1]) + 1)}, ${LABELS[item[2]!] ?? item[2]}`;
  return LABELS[field] ?? field;
}

/** The new bill: the form the API's schema describes; issued, the desk opens the bill. */
export function NewBill({ actor }: { actor: NewBillActor }) {
  const form = useSelector(actor, (state) => state.context.form);
  const failed = useSelector(actor, (state) => state.hasTag('failed'));
  const problem = useSelector(actor, (state) => state.context.problem);
  if (failed) {
    return (
      <>
        <PageTitle>{m.title}</PageTitle>
        <LoadFailed problem={problem} onRetry={() => actor.send({ type: 'retry' })} />
      </>
    );
  }
  if (!form) return <Loading />;
  return <BillFormView actor={actor} form={form} />;
}

function BillFormView({ actor, form }: { actor: NewBillActor; form: BillForm }) {
  const schema = schemaOfForm(form);
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const problem = useSelector(actor, (state) => state.context.problem);
  const [draft, setDraft] = useState<BillDraft>(() => emptyDraft(form));
  const summary = useRef<HTMLDivElement>(null);
  // A refused bill: the problems' summary takes focus, so a keyboard or a screen reader starts from it.
  useEffect(() => {
    if (problem) summary.current?.focus();
  }, [problem]);

  const set = (change: Partial<BillDraft>) => setDraft((current) => ({ ...current, ...change }));
  const setPosition = (index: number, change: Partial<PositionDraft>) =>
    setDraft((current) => ({ ...current, positions: current.positions.map((position, i) => (i === index ? { ...position, ...change } : position)) }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'bill.submit', body: newBillBody(draft) });
  };
  const error = (field: string) => fieldProblem(problem, field);
  const fields = problem ? russianFields(problem.fields) : [];
  const total = draftTotal(draft);
  const codeSelect = (index: number, key: 'vat' | 'paymentMethod' | 'paymentObject', label: string, codes: readonly string[], names: Record<string, string>) => (
    <Field id={`item-${index}-${key}`} label={label} error={error(`items[${index}].${key}`)}>
      {(props) => (
        <select {...props} value={draft.positions[index]![key]} onChange={(event) => setPosition(index, { [key]: event.target.value })}>
          {codes.map((code) => (
            <option key={code} value={code}>
              {names[code] ?? code}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
  return (
    <>
      <PageTitle>{m.title}</PageTitle>
      <form className="panel" onSubmit={submit} noValidate aria-busy={busy}>
        {problem ? (
          <div className="alert" role="alert" tabIndex={-1} ref={summary}>
            {m.problems}
            <ul>
              {(fields.length > 0 ? fields : [{ field: '', message: problem.message }]).map((field) => (
                <li key={field.field}>{field.field ? `${fieldLabel(field.field)}: ${field.message}` : field.message}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <Field id="bill-purpose" label={m.purpose} error={error('purpose')}>
          {(props) => <input {...props} value={draft.purpose} maxLength={schema.purposeMax} onChange={(event) => set({ purpose: event.target.value })} />}
        </Field>
        <fieldset className="dialog-body">
          <legend className="label">{m.customer}</legend>
          <div className="position-fields">
            <Field id="bill-name" label={m.name} error={error('customer.name')}>
              {(props) => <input {...props} value={draft.name} maxLength={schema.nameMax} autoComplete="off" onChange={(event) => set({ name: event.target.value })} />}
            </Field>
            <Field id="bill-phone" label={m.phone} hint={m.optional} error={error('customer.phone')}>
              {(props) => <input {...props} type="tel" value={draft.phone} autoComplete="off" onChange={(event) => set({ phone: event.target.value })} />}
            </Field>
            <Field id="bill-email" label={m.email} hint={m.optional} error={error('customer.email')}>
              {(props) => <input {...props} type="email" value={draft.email} maxLength={schema.emailMax} autoComplete="off" onChange={(event) => set({ email: event.target.value })} />}
            </Field>
          </div>
        </fieldset>
        <Field id="bill-expires" label={m.expires} hint={m.optional} error={error('expiresAt')}>
          {(props) => <input {...props} type="datetime-local" value={draft.expires} onChange={(event) => set({ expires: event.target.value })} />}
        </Field>
        <fieldset className="dialog-body">
          <legend className="label">{m.parts}</legend>
          <div className="field">
            <label>
              <input type="checkbox" checked={draft.parts} onChange={(event) => set({ parts: event.target.checked })} aria-describedby="bill-parts-hint" /> {m.parts}
            </label>
            <p className="muted" id="bill-parts-hint">
              {m.partsHint}
            </p>
            {error('parts') ? <p className="field-error">{error('parts')}</p> : null}
          </div>
          {draft.parts ? (
            <Field id="bill-part-minimum" label={m.partMinimum} error={error('parts.minimum.value') ?? error('parts.minimum')}>
              {(props) => <input {...props} inputMode="decimal" autoComplete="off" value={draft.partMinimum} onChange={(event) => set({ partMinimum: event.target.value })} />}
            </Field>
          ) : null}
        </fieldset>
        <fieldset className="dialog-body">
          <legend className="label">{m.capture}</legend>
          {schema.capture.map((capture) => (
            <label key={capture}>
              <input type="radio" name="bill-capture" value={capture} checked={draft.capture === capture} onChange={() => set({ capture: capture === 'manual' ? 'manual' : 'automatic' })} />{' '}
              {m.captureNames[capture] ?? capture}
            </label>
          ))}
          {error('capture') ? <p className="field-error">{error('capture')}</p> : null}
        </fieldset>
        <fieldset className="positions">
          <legend className="label">{m.positions}</legend>
          {error('items') ? <p className="field-error">{error('items')}</p> : null}
          {draft.positions.map((position, index) => (
            <fieldset className="position" key={index}>
              <legend>{m.position(index + 1)}</legend>
              <div className="position-fields">
                <Field id={`item-${index}-name`} label={m.itemName} error={error(`items[${index}].name`)}>
                  {(props) => <input {...props} value={position.name} maxLength={schema.itemNameMax} onChange={(event) => setPosition(index, { name: event.target.value })} />}
                </Field>
                <Field id={`item-${index}-quantity`} label={m.quantity} error={error(`items[${index}].quantity`)}>
                  {(props) => <input {...props} inputMode="decimal" value={position.quantity} onChange={(event) => setPosition(index, { quantity: event.target.value })} />}
                </Field>
                <Field id={`item-${index}-price`} label={m.price} error={error(`items[${index}].price.value`) ?? error(`items[${index}].price`)}>
                  {(props) => <input {...props} inputMode="decimal" value={position.price} onChange={(event) => setPosition(index, { price: event.target.value })} />}
                </Field>
              </div>
              <div className="position-codes">
                {codeSelect(index, 'vat', m.vat, schema.vat, vatNames)}
                {codeSelect(index, 'paymentMethod', m.paymentMethod, schema.paymentMethod, paymentMethodNames)}
                {codeSelect(index, 'paymentObject', m.paymentObject, schema.paymentObject, paymentObjectNames)}
                <Field id={`item-${index}-measure`} label={m.measure} error={error(`items[${index}].measure`)}>
                  {(props) => (
                    <select {...props} value={position.measure} onChange={(event) => setPosition(index, { measure: event.target.value })}>
                      <option value="">{m.noMeasure}</option>
                      {schema.measure.map((code) => (
                        <option key={code} value={code}>
                          {measureNames[code] ?? code}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
              </div>
              {draft.positions.length > 1 ? (
                <div>
                  <button type="button" className="button secondary" onClick={() => set({ positions: draft.positions.filter((_, i) => i !== index) })}>
                    {m.removePosition(index + 1)}
                  </button>
                </div>
              ) : null}
            </fieldset>
          ))}
          {draft.positions.length < schema.itemsMax ? (
            <div>
              <button type="button" className="button secondary" onClick={() => set({ positions: [...draft.positions, newPosition(form)] })}>
                {m.addPosition}
              </button>
            </div>
          ) : null}
        </fieldset>
        <p className="total" aria-live="polite">
          {m.total}: {formatMoney(total)}
        </p>
        <div>
          <button type="submit" className="button" disabled={busy}>
            {busy ? m.submitting : m.submit}
          </button>
        </div>
      </form>
    </>
  );
}
