import { useSelector } from '../../views/useSelector';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import type { SettingsActor } from '../machines/settings';
import { deskMessages } from '../services/messages';
import type { OfferDocument, Settings } from '../services/types';
import { Field, fieldProblem, LoadFailed, Loading, PageTitle, Problem } from './common';

const m = deskMessages.settings;

/** The merchant's settings (admins): name and support contacts the payer sees, the logo, the offer documents, webhooks. */
export function SettingsPage({ actor }: { actor: SettingsActor }) {
  const settings = useSelector(actor, (state) => state.context.settings);
  const failed = useSelector(actor, (state) => state.hasTag('failed'));
  const problem = useSelector(actor, (state) => state.context.problem);
  return (
    <>
      <PageTitle>{m.title}</PageTitle>
      {failed ? <LoadFailed problem={problem} onRetry={() => actor.send({ type: 'retry' })} /> : null}
      {!failed && !settings ? <Loading /> : null}
      {settings ? <SettingsForm actor={actor} settings={settings} /> : null}
    </>
  );
}

function SettingsForm({ actor, settings }: { actor: SettingsActor; settings: Settings }) {
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const problem = useSelector(actor, (state) => state.context.problem);
  const outcome = useSelector(actor, (state) => state.context.outcome);
  const [name, setName] = useState(settings.name);
  const [supportPhone, setSupportPhone] = useState(settings.supportPhone);
  const [supportEmail, setSupportEmail] = useState(settings.supportEmail);
  const [webhookUrl, setWebhookUrl] = useState(settings.webhookUrl ?? '');
  const [offers, setOffers] = useState(settings.offers);
  const error = (field: string) => fieldProblem(problem, field);
  const save = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'settings.save', change: { name, supportPhone, supportEmail, webhookUrl: webhookUrl.trim() || null, offers } });
  };
  const setOffer = (kind: 'aggregator' | 'executer', change: Partial<OfferDocument>) => setOffers((current) => ({ ...current, [kind]: { ...current[kind], ...change } }));
  const upload = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      const data = String(reader.result);
      actor.send({ type: 'logo.upload', image: data.slice(data.indexOf(',') + 1) });
    };
    reader.readAsDataURL(file);
    event.target.value = '';
  };
  return (
    <form onSubmit={save} noValidate className="stack" aria-busy={busy}>
      <div role="status">
        {outcome?.kind === 'saved' ? <p className="success">{m.saved}</p> : null}
        {outcome?.kind === 'tested' ? (
          <p className={outcome.delivery.delivered ? 'success' : 'alert'}>
            {outcome.delivery.url}: {m.tested(outcome.delivery.statusCode, outcome.delivery.durationMs)}
            {outcome.delivery.error ? ` — ${outcome.delivery.error}` : ''}
          </p>
        ) : null}
      </div>
      <Problem problem={problem} />
      <section className="panel" aria-labelledby="settings-merchant">
        <h2 id="settings-merchant">{m.merchant}</h2>
        <Field id="settings-name" label={m.name} error={error('name')}>
          {(props) => <input {...props} value={name} onChange={(event) => setName(event.target.value)} />}
        </Field>
        <div className="position-fields">
          <Field id="settings-phone" label={m.supportPhone} hint={m.supportHint} error={error('supportPhone')}>
            {(props) => <input {...props} type="tel" value={supportPhone} onChange={(event) => setSupportPhone(event.target.value)} />}
          </Field>
          <Field id="settings-email" label={m.supportEmail} hint={m.supportHint} error={error('supportEmail')}>
            {(props) => <input {...props} type="email" value={supportEmail} onChange={(event) => setSupportEmail(event.target.value)} />}
          </Field>
        </div>
        <div className="dialog-body">
          <h3>{m.logo}</h3>
          {settings.logo ? <img src={settings.logo.url} alt={m.logo} className="logo-preview" /> : <p className="muted">{m.logoNone}</p>}
          <Field id="settings-logo" label={m.logoUpload} hint={m.logoHint(Math.round(settings.logoMaxBytes / 1024))} error={error('logo')}>
            {(props) => <input {...props} type="file" accept={settings.logoTypes.join(',')} onChange={upload} disabled={busy} />}
          </Field>
          {settings.logo ? (
            <div>
              <button type="button" className="button secondary" disabled={busy} onClick={() => actor.send({ type: 'logo.upload', image: null })}>
                {m.logoRemove}
              </button>
            </div>
          ) : null}
        </div>
      </section>
      <section className="panel" aria-labelledby="settings-offers">
        <h2 id="settings-offers">{m.offers}</h2>
        <p className="muted">{m.offersHint(settings.blanks.join(', '))}</p>
        {(['aggregator', 'executer'] as const).map((kind) => (
          <fieldset key={kind} className="position">
            <legend>{m[kind]}</legend>
            <Field id={`offer-${kind}-title`} label={m.offerTitle} error={error(`offers.${kind}.title`)}>
              {(props) => <input {...props} value={offers[kind].title} onChange={(event) => setOffer(kind, { title: event.target.value })} />}
            </Field>
            <Field id={`offer-${kind}-text`} label={m.offerText} error={error(`offers.${kind}.text`)}>
              {(props) => <textarea {...props} value={offers[kind].text} onChange={(event) => setOffer(kind, { text: event.target.value })} />}
            </Field>
          </fieldset>
        ))}
      </section>
      <section className="panel" aria-labelledby="settings-webhooks">
        <h2 id="settings-webhooks">{m.webhooks}</h2>
        <Field id="settings-webhook" label={m.webhookUrl} hint={m.webhookHint(settings.webhookUrlDefault)} error={error('webhookUrl')}>
          {(props) => <input {...props} type="url" value={webhookUrl} onChange={(event) => setWebhookUrl(event.target.value)} />}
        </Field>
        <div>
          <button type="button" className="button secondary" disabled={busy} onClick={() => actor.send({ type: 'webhook.test' })}>
            {m.testEvent}
          </button>
        </div>
      </section>
      <div>
        <button type="submit" className="button" disabled={busy}>
          {busy ? m.saving : m.save}
        </button>
      </div>
    </form>
  );
}
