import { useSelector } from '../../views/useSelector';
import { useState } from 'react';
import type { PaymentsActor } from '../machines/payments';
import { exportUrl } from '../services/api';
import { formatDay, formatMoney, moscowToday } from '../services/format';
import { deskMessages, methodNames } from '../services/messages';
import type { Figures, PeriodFigures } from '../services/types';
import { Field, LoadFailed, Loading, PageTitle } from './common';
import { Desk, useDeskServices } from './deskContext';
import { DayChart } from './DayChart';

const m = deskMessages.payments;

/** The payments: today, this week, this month (by way to pay), the last 30 days as a chart and a table, the exports. */
export function Payments({ actor }: { actor: PaymentsActor }) {
  const figures = useSelector(actor, (state) => state.context.figures);
  const failed = useSelector(actor, (state) => state.hasTag('failed'));
  const problem = useSelector(actor, (state) => state.context.problem);
  const mayExport = Desk.useSelector((state) => state.context.me?.permissions.includes('payments.export') ?? false);
  return (
    <>
      <PageTitle>{m.title}</PageTitle>
      {failed ? <LoadFailed problem={problem} onRetry={() => actor.send({ type: 'retry' })} /> : null}
      {!failed && !figures ? <Loading /> : null}
      {figures ? <FiguresView figures={figures} /> : null}
      {mayExport ? <Exports /> : null}
    </>
  );
}

function FiguresView({ figures }: { figures: Figures }) {
  return (
    <>
      <div className="figures">
        <Period title={m.today} period={figures.today} id="period-today" />
        <Period title={m.week} period={figures.week} id="period-week" />
        <Period title={m.month} period={figures.month} id="period-month" />
      </div>
      <section className="panel" aria-labelledby="chart-title">
        <h2 id="chart-title">{m.chart}</h2>
        <div className="chart-area">
          <DayChart days={figures.days} />
          <div className="table-wrap chart-table" role="region" aria-labelledby="days-table-caption" tabIndex={0}>
            <table>
              <caption id="days-table-caption">{m.table}</caption>
              <thead>
                <tr>
                  <th scope="col">{m.day}</th>
                  <th scope="col" className="num">
                    {m.number}
                  </th>
                  <th scope="col" className="num">
                    {m.sum}
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...figures.days].reverse().map((day) => (
                  <tr key={day.date}>
                    <th scope="row">{formatDay(day.date, true)}</th>
                    <td className="num">{day.count}</td>
                    <td className="num">{formatMoney(day.sum)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      </section>
    </>
  );
}

function Period({ title, period, id }: { title: string; period: PeriodFigures; id: string }) {
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p className="figure-sum">{formatMoney(period.sum)}</p>
      <p className="muted">{m.count(period.count)}</p>
      {period.byMethod.length > 0 ? (
        <ul className="list-plain" aria-label={m.byMethod}>
          {period.byMethod.map((method) => (
            <li key={method.method}>
              {methodNames[method.method] ?? method.method}: {formatMoney(method.sum)} ({m.count(method.count)})
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function Exports() {
  const { now } = useDeskServices();
  const today = moscowToday(now());
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  return (
    <section className="panel" aria-labelledby="export-title">
      <h2 id="export-title">{m.export}</h2>
      <p className="muted">{m.exportHint}</p>
      <div className="row">
        <Field id="export-from" label={m.from}>
          {(props) => <input {...props} type="date" value={from} onChange={(event) => setFrom(event.target.value)} />}
        </Field>
        <Field id="export-to" label={m.to}>
          {(props) => <input {...props} type="date" value={to} onChange={(event) => setTo(event.target.value)} />}
        </Field>
        <a className="button" href={exportUrl('payments', from, to)} download>
          {m.exportPayments}
        </a>
        <a className="button secondary" href={exportUrl('bills', from, to)} download>
          {m.exportBills}
        </a>
      </div>
    </section>
  );
}

