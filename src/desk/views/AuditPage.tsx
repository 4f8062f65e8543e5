import { useSelector } from '../../views/useSelector';
import type { AuditActor } from '../machines/audit';
import { formatMoment } from '../services/format';
import { auditActionNames, deskMessages } from '../services/messages';
import { LoadFailed, Loading, PageTitle } from './common';

const m = deskMessages.audit;

/** The audit log (admins): who did what and when, newest first. */
export function AuditPage({ actor }: { actor: AuditActor }) {
  const answer = useSelector(actor, (state) => state.context.answer);
  const failed = useSelector(actor, (state) => state.hasTag('failed'));
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const problem = useSelector(actor, (state) => state.context.problem);
  const page = useSelector(actor, (state) => state.context.page);
  const pages = answer ? Math.max(1, Math.ceil(answer.total / answer.pageSize)) : 1;
  return (
    <>
      <PageTitle>{m.title}</PageTitle>
      {failed ? <LoadFailed problem={problem} onRetry={() => actor.send({ type: 'retry' })} /> : null}
      {!answer && !failed ? <Loading /> : null}
      {answer && answer.lines.length === 0 ? <p>{m.empty}</p> : null}
      {answer && answer.lines.length > 0 ? (
        <div className="table-wrap" role="region" aria-label={m.title} tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{m.at}</th>
                <th scope="col">{m.who}</th>
                <th scope="col">{m.action}</th>
                <th scope="col">{m.subject}</th>
                <th scope="col">{m.details}</th>
              </tr>
            </thead>
            <tbody>
              {answer.lines.map((line) => (
                <tr key={line.id}>
                  <td>{formatMoment(line.at)}</td>
                  <td>{line.by}</td>
                  <td>{auditActionNames[line.action] ?? line.action}</td>
                  <td>{line.subject ?? ''}</td>
                  <td>
                    <code>{line.details ? JSON.stringify(line.details) : ''}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {pages > 1 ? (
        <nav className="pager" aria-label={deskMessages.bills.pages}>
          <button type="button" className="button secondary" disabled={page <= 1 || busy} onClick={() => actor.send({ type: 'audit.page', page: page - 1 })}>
            {deskMessages.bills.previous}
          </button>
          <span>{deskMessages.bills.page(page, pages)}</span>
          <button type="button" className="button secondary" disabled={page >= pages || busy} onClick={() => actor.send({ type: 'audit.page', page: page + 1 })}>
            {deskMessages.bills.next}
          </button>
        </nav>
      ) : null}
    </>
  );
}
