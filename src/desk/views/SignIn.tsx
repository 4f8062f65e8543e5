import { useSelector } from '../../views/useSelector';
import { useState, type FormEvent } from 'react';
import type { SignInActor } from '../machines/signIn';
import type { SignedOutNotice } from '../machines/desk';
import { deskMessages as m } from '../services/messages';
import { refusalText } from '../services/problems';
import { Field } from './common';

const noticeText: Record<Exclude<SignedOutNotice, null>, string> = { signedOut: m.signIn.signedOut, idle: m.signIn.idle, ended: m.signIn.ended };

/** The sign-in form: e-mail, password, and why the last try failed (or why the desk signed out). */
export function SignIn({ actor, notice }: { actor: SignInActor; notice: SignedOutNotice }) {
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const problem = useSelector(actor, (state) => state.context.problem);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'signIn.submit', email, password });
  };
  const failure = problem
    ? problem.code === 'wrong_credentials'
      ? m.signIn.wrong
      : problem.code === 'locked'
        ? problem.message
        : problem.code === 'csrf'
          ? m.signIn.stale
          : problem.status === 0
            ? m.signIn.failed
            : refusalText(problem)
    : null;
  return (
    <main className="signin" id="main">
      <h1 className="page-title">{m.signIn.title}</h1>
      {notice && !failure ? (
        <p className="notice" role="status">
          {noticeText[notice]}
        </p>
      ) : null}
      <form className="panel" onSubmit={submit} noValidate aria-describedby={failure ? 'signin-error' : undefined}>
        {failure ? (
          <p className="alert" role="alert" id="signin-error">
            {failure}
          </p>
        ) : null}
        <Field id="signin-email" label={m.signIn.email}>
          {(props) => <input {...props} type="email" autoComplete="username" value={email} onChange={(event) => setEmail(event.target.value)} required />}
        </Field>
        <Field id="signin-password" label={m.signIn.password}>
          {(props) => <input {...props} type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} required />}
        </Field>
        <div>
          <button type="submit" className="button" disabled={busy}>
            {m.signIn.submit}
          </button>
        </div>
      </form>
    </main>
  );
}
