import { useSelector } from '../../views/useSelector';
import { useState, type FormEvent } from 'react';
import type { StaffActor } from '../machines/staff';
import { formatMoment } from '../services/format';
import { deskMessages, roleNames } from '../services/messages';
import { ROLES, type Role } from '../services/rules/permissions';
import { Field, fieldProblem, LoadFailed, Loading, PageTitle, Problem } from './common';
import { Desk } from './deskContext';

const m = deskMessages.staff;

/** The staff (admins): who has access and with what role; add one, change a role, switch off, give a new password. */
export function StaffPage({ actor }: { actor: StaffActor }) {
  const staff = useSelector(actor, (state) => state.context.staff);
  const failed = useSelector(actor, (state) => state.hasTag('failed'));
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const problem = useSelector(actor, (state) => state.context.problem);
  const shown = useSelector(actor, (state) => state.context.shown);
  const me = Desk.useSelector((state) => state.context.me?.email);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('manager');
  const add = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'staff.add', email, name, role });
  };
  return (
    <>
      <PageTitle>{m.title}</PageTitle>
      {failed ? <LoadFailed problem={problem} onRetry={() => actor.send({ type: 'retry' })} /> : <Problem problem={problem} />}
      {shown ? (
        <div className="success" role="status">
          {shown.added ? m.added(shown.email) : m.resetDone(shown.email)} <span className="secret">{shown.password}</span>
        </div>
      ) : null}
      <form className="panel" onSubmit={add} noValidate aria-labelledby="staff-add">
        <h2 id="staff-add">{m.add}</h2>
        <div className="position-fields">
          <Field id="staff-email" label={m.email} error={fieldProblem(problem, 'email')}>
            {(props) => <input {...props} type="email" autoComplete="off" value={email} onChange={(event) => setEmail(event.target.value)} />}
          </Field>
          <Field id="staff-name" label={m.name} error={fieldProblem(problem, 'name')}>
            {(props) => <input {...props} autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} />}
          </Field>
          <Field id="staff-role" label={m.role}>
            {(props) => (
              <select {...props} value={role} onChange={(event) => setRole(event.target.value as Role)}>
                {ROLES.map((option) => (
                  <option key={option} value={option}>
                    {roleNames[option]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <div>
          <button type="submit" className="button" disabled={busy}>
            {busy ? m.adding : m.add}
          </button>
        </div>
      </form>
      {!staff && !failed ? <Loading /> : null}
      {staff ? (
        <div className="table-wrap" role="region" aria-label={m.title} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{m.email}</th>
                <th scope="col">{m.name}</th>
                <th scope="col">{m.role}</th>
                <th scope="col">{m.state}</th>
                <th scope="col">
                  <span className="visually-hidden">{m.reset}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {staff.map((member) => {
                const self = member.email === me;
                return (
                  <tr key={member.id}>
                    <td>
                      {member.email}
                      {member.demo ? <span className="muted"> ({m.demo})</span> : null}
                      {self ? <span className="muted"> ({m.you})</span> : null}
                      <div className="muted">{formatMoment(member.createdAt)}</div>
                    </td>
                    <td>{member.name}</td>
                    <td>
                      <select
                        aria-label={m.changeRole(member.email)}
                        value={member.role}
                        disabled={busy || self}
                        onChange={(event) => actor.send({ type: 'staff.change', id: member.id, change: { role: event.target.value as Role } })}
                      >
                        {ROLES.map((option) => (
                          <option key={option} value={option}>
                            {roleNames[option]}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td>
                      {member.disabled ? m.disabled : m.active}
                      {member.locked ? <div className="muted">{m.locked}</div> : null}
                      {member.mustChangePassword ? <div className="muted">{m.mustChange}</div> : null}
                      {!self ? (
                        <div>
                          <button type="button" className="button link" disabled={busy} onClick={() => actor.send({ type: 'staff.change', id: member.id, change: { disabled: !member.disabled } })}>
                            {member.disabled ? m.enable : m.disable}
                            <span className="visually-hidden"> {member.email}</span>
                          </button>
                        </div>
                      ) : null}
                    </td>
                    <td>
                      <button type="button" className="button secondary" disabled={busy} onClick={() => actor.send({ type: 'staff.reset', id: member.id })}>
                        {m.reset}
                        <span className="visually-hidden"> {member.email}</span>
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
