import { useSelector } from '../../views/useSelector';
import { useState, type FormEvent } from 'react';
import type { BillsListActor } from '../machines/billsList';
import { formatMoment, formatMoney, formatPhone } from '../services/format';
import { billStatusNames, deskMessages } from '../services/messages';
import { BILL_STATUSES } from '../services/types';
import { DeskLink, LoadFailed, PageTitle } from './common';

const m = deskMessages.bills;

/** The bills: search by number, name, phone or e-mail; status filters; newest first, a page at a time. */
export function BillsList({ actor }: { actor: BillsListActor }) {
  const query = useSelector(actor, (state) => state.context.query);
  const answer = useSelector(actor, (state) => state.context.answer);
  const busy = useSelector(actor, (state) => state.hasTag('busy'));
  const failed = useSelector(actor, (state) => state.hasTag('failed'));
  const problem = useSelector(actor, (state) => state.context.problem);
  const [typed, setTyped] = useState(query.q);
  const search = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'bills.search', q: typed });
  };
  const pages = answer ? Math.max(1, Math.ceil(answer.total / answer.pageSize)) : 1;
  return (
    <>
      <PageTitle>{m.title}</PageTitle>
      <form className="panel" role="search" onSubmit={search}>
        <div className="row">
          <div className="field grow">
            <label htmlFor="bills-search">{m.search}</label>
            <input id="bills-search" type="search" value={typed} onChange={(event) => setTyped(event.target.value)} aria-describedby="bills-search-hint" />
            <span className="field-hint" id="bills-search-hint">
              {m.searchHint}
            </span>
          </div>
          <button type="submit" className="button">
            {m.find}
          </button>
        </div>
        <fieldset>
          <legend className="label">{m.statuses}</legend>
          <div className="checks">
            {BILL_STATUSES.map((status) => (
              <label key={status}>
                <input type="checkbox" checked={query.statuses.includes(status)} onChange={() => actor.send({ type: 'bills.toggleStatus', status })} />
                {billStatusNames[status]}
              </label>
            ))}
          </div>
        </fieldset>
      </form>
      {failed ? <LoadFailed problem={problem} onRetry={() => actor.send({ type: 'retry' })} /> : null}
      <section aria-labelledby="bills-found" aria-busy={busy}>
        <p id="bills-found" role="status" className="muted">
          {answer ? m.found(answer.total) : deskMessages.app.loading}
        </p>
        {answer && answer.bills.length === 0 ? <p>{m.empty}</p> : null}
        {answer && answer.bills.length > 0 ? (
          <div className="table-wrap" role="region" aria-labelledby="bills-found" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{m.number}</th>
                  <th scope="col">{m.purpose}</th>
                  <th scope="col">{m.customer}</th>
                  <th scope="col" className="num">
                    {m.amount}
                  </th>
                  <th scope="col">{m.status}</th>
                  <th scope="col">{m.created}</th>
                </tr>
              </thead>
              <tbody>
                {answer.bills.map((bill) => (
                  <tr key={bill.objectOID}>
                    <td className="nowrap">
                      <DeskLink route={{ name: 'bill', objectOID: bill.objectOID }}>{bill.objectOID}</DeskLink>
                    </td>
                    <td>{bill.purpose}</td>
                    <td>
                      {bill.customer.name}
                      {bill.customer.phone ? <div className="muted">{formatPhone(bill.customer.phone)}</div> : null}
                      {bill.customer.email ? <div className="muted">{bill.customer.email}</div> : null}
                    </td>
                    <td className="num">{formatMoney(bill.amount)}</td>
                    <td>
                      <span className={`status status-${bill.status}`}>{billStatusNames[bill.status]}</span>
                    </td>
                    <td>{formatMoment(bill.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {answer && pages > 1 ? (
          <nav className="pager" aria-label={m.pages}>
            <button type="button" className="button secondary" disabled={query.page <= 1 || busy} onClick={() => actor.send({ type: 'bills.page', page: query.page - 1 })}>
              {m.previous}
            </button>
            <span>{m.page(query.page, pages)}</span>
            <button type="button" className="button secondary" disabled={query.page >= pages || busy} onClick={() => actor.send({ type: 'bills.page', page: query.page + 1 })}>
              {m.next}
            </button>
          </nav>
        ) : null}
      </section>
    </>
  );
}
