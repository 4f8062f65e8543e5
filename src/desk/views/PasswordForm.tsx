import { useSelector } from '../../views/useSelector';
import { useState, type FormEvent } from 'react';
import type { PasswordChangeActor } from '../machines/passwordChange';
import { deskMessages as m } from '../services/messages';
import { Field, fieldProblem, Problem } from './common';

/** A new password after a sign-in with a one-time one: nothing else opens until it is set. */
export function PasswordForm({ actor, onSignOut }: { actor: PasswordChangeActor; onSignOut: () => void }) {
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const problem = useSelector(actor, (state) => state.context.problem);
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'password.submit', current, password });
  };
  return (
    <main className="signin" id="main">
      <h1 className="page-title">{m.password.title}</h1>
      <p>{m.password.lead}</p>
      <form className="panel" onSubmit={submit} noValidate>
        <Problem problem={problem} />
        <Field id="password-current" label={m.password.current} error={fieldProblem(problem, 'current')}>
          {(props) => <input {...props} type="password" autoComplete="current-password" value={current} onChange={(event) => setCurrent(event.target.value)} />}
        </Field>
        <Field id="password-next" label={m.password.next} error={fieldProblem(problem, 'password')}>
          {(props) => <input {...props} type="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} />}
        </Field>
        <div className="row">
          <button type="submit" className="button" disabled={busy}>
            {m.password.submit}
          </button>
          <button type="button" className="button secondary" onClick={onSignOut}>
            {m.app.signOut}
          </button>
        </div>
      </form>
    </main>
  );
}
