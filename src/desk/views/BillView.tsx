import { useSelector } from '../../views/useSelector';
import { useState, type FormEvent } from 'react';
import type { BillActor, LinkChannel } from '../machines/bill';
import { formatMoment, formatMoney, formatPhone, phoneDigits } from '../services/format';
import {
  auditActionNames,
  billStatusNames,
  deskMessages,
  paymentObjectNames,
  vatNames,
  webhookStateNames,
} from '../services/messages';
import { refusalText } from '../services/problems';
import type { BillPage } from '../services/types';
import { DeskLink, fieldProblem, LoadFailed, Loading, PageTitle } from './common';
import { useDeskServices } from './deskContext';
import { ActionButtons, ClosingReceipts, Payments } from './BillPayments';
import { PaymentActionDialog } from './PaymentActionDialog';

const m = deskMessages.bill;

/** A bill's page: its facts, the pay link (copy, QR, send), positions, payments with their actions, receipts, webhooks. */
export function BillView({ actor }: { actor: BillActor }) {
  const page = useSelector(actor, (state) => state.context.page);
  const failed = useSelector(actor, (state) => state.hasTag('failed'));
  const problem = useSelector(actor, (state) => state.context.problem);
  const objectOID = useSelector(actor, (state) => state.context.objectOID);
  const action = useSelector(actor, (state) => state.children.action);
  const idle = useSelector(actor, (state) => state.matches({ ready: 'idle' }));
  if (failed) {
    return (
      <>
        <DeskLink route={{ name: 'bills' }}>{m.back}</DeskLink>
        <PageTitle>{m.title(objectOID)}</PageTitle>
        <LoadFailed problem={problem} onRetry={() => actor.send({ type: 'retry' })} />
      </>
    );
  }
  if (!page) return <Loading />;
  const { bill } = page;
  return (
    <>
      <DeskLink route={{ name: 'bills' }}>{m.back}</DeskLink>
      <PageTitle>{m.title(bill.objectOID)}</PageTitle>
      <div className="grid-2">
        <section className="panel" aria-labelledby="bill-facts">
          <h2 id="bill-facts">{bill.purpose}</h2>
          <dl className="facts">
            <dt>{m.status}</dt>
            <dd>
              <span className={`status status-${bill.status}`}>{billStatusNames[bill.status]}</span>
            </dd>
            <dt>{m.amount}</dt>
            <dd>{formatMoney(bill.amount)}</dd>
            <dt>{m.paidSoFar}</dt>
            <dd>{formatMoney(bill.paid)}</dd>
            {bill.parts ? (
              <>
                <dt>{m.parts}</dt>
                <dd>{m.partsMinimum(formatMoney(bill.parts.minimum))}</dd>
                <dt>{m.remaining}</dt>
                <dd>{formatMoney(bill.remaining)}</dd>
              </>
            ) : null}
            <dt>{m.capture}</dt>
            <dd>{m.captureNames[bill.capture] ?? bill.capture}</dd>
            <dt>{m.customer}</dt>
            <dd>{bill.customer.name || '—'}</dd>
            {bill.customer.phone ? (
              <>
                <dt>{m.phone}</dt>
                <dd>{formatPhone(bill.customer.phone)}</dd>
              </>
            ) : null}
            {bill.customer.email ? (
              <>
                <dt>{m.email}</dt>
                <dd>{bill.customer.email}</dd>
              </>
            ) : null}
            <dt>{m.created}</dt>
            <dd>{formatMoment(bill.createdAt)}</dd>
            {bill.expiresAt ? (
              <>
                <dt>{m.expires}</dt>
                <dd>{formatMoment(bill.expiresAt)}</dd>
              </>
            ) : null}
            {bill.paidAt ? (
              <>
                <dt>{m.paid}</dt>
                <dd>{formatMoment(bill.paidAt)}</dd>
              </>
            ) : null}
            {bill.closedAt ? (
              <>
                <dt>{m.closed}</dt>
                <dd>{formatMoment(bill.closedAt)}</dd>
              </>
            ) : null}
            {bill.handedOverAt ? (
              <>
                <dt>{m.handedOver}</dt>
                <dd>{formatMoment(bill.handedOverAt)}</dd>
              </>
            ) : null}
          </dl>
          <ClosingReceipts page={page} />
          <ActionButtons actions={page.actions} label={m.billActions} disabled={!idle} onAction={(action) => actor.send({ type: 'action.open', subject: bill.objectOID, action })} />
        </section>
        <PayLink actor={actor} page={page} />
      </div>
      <Positions page={page} />
      <Payments actor={actor} page={page} />
      <Webhooks page={page} />
      <History page={page} />
      {action ? <PaymentActionDialog actor={action} /> : null}
    </>
  );
}

function PayLink({ actor, page }: { actor: BillActor; page: BillPage }) {
  const { copy } = useDeskServices();
  const [copied, setCopied] = useState<boolean | null>(null);
  const idle = useSelector(actor, (state) => state.matches({ ready: 'idle' }));
  const sending = useSelector(actor, (state) => state.hasTag('sending'));
  const link = useSelector(actor, (state) => state.context.link);
  const [phone, setPhone] = useState(formatPhone(page.bill.customer.phone));
  const [email, setEmail] = useState(page.bill.customer.email ?? '');
  // A bill in parts some of which is paid still takes its remainder.
  const payable = page.bill.status === 'unpaid' || page.bill.status === 'partially_paid';
  const send = (channel: LinkChannel) => (event: FormEvent) => {
    event.preventDefault();
    const to = channel === 'sms' ? phoneDigits(phone) : email.trim();
    actor.send({ type: 'link.send', channel, to: to || null });
  };
  const linkProblem = link?.problem ?? null;
  return (
    <section className="panel" aria-labelledby="pay-link">
      <h2 id="pay-link">{m.payLink}</h2>
      <div className="pay-link">
        <img src={page.payLink.qr} alt={m.qr} width={180} height={180} />
        <div className="dialog-body">
          <code>{page.payLink.url}</code>
          <div className="row">
            <button type="button" className="button secondary" onClick={() => void copy(page.payLink.url).then(setCopied)}>
              {m.copy}
            </button>
          </div>
          <p role="status" className="muted">
            {copied === null ? '' : copied ? m.copied : m.copyFailed}
          </p>
        </div>
      </div>
      {page.canSend.sms || page.canSend.email ? (
        <div className="dialog-body">
          <h3>{m.sendLink}</h3>
          {!payable ? <p className="muted">{m.notPayable}</p> : null}
          {page.canSend.sms ? (
            <form className="row" onSubmit={send('sms')} aria-label={`${m.sendLink}: ${m.bySms}`}>
              <div className="field grow">
                <label htmlFor="send-sms-to">{m.to('sms')}</label>
                <input
                  id="send-sms-to"
                  type="tel"
                  autoComplete="off"
                  value={phone}
                  onChange={(event) => setPhone(event.target.value)}
                  aria-invalid={link?.channel === 'sms' && fieldProblem(linkProblem, 'to') ? true : undefined}
                />
              </div>
              <button type="submit" className="button" disabled={!payable || !idle}>
                {m.bySms}
              </button>
            </form>
          ) : null}
          {page.canSend.email ? (
            <form className="row" onSubmit={send('email')} aria-label={`${m.sendLink}: ${m.byEmail}`}>
              <div className="field grow">
                <label htmlFor="send-email-to">{m.to('email')}</label>
                <input
                  id="send-email-to"
                  type="email"
                  autoComplete="off"
                  value={email}
                  onChange={(event) => setEmail(event.target.value)}
                  aria-invalid={link?.channel === 'email' && fieldProblem(linkProblem, 'to') ? true : undefined}
                />
              </div>
              <button type="submit" className="button" disabled={!payable || !idle}>
                {m.byEmail}
              </button>
            </form>
          ) : null}
          <div role="status">
            {sending ? <p className="muted">{m.sending}</p> : null}
            {link?.sent ? <p className="success">{m.sent(link.channel, link.channel === 'sms' ? formatPhone(link.to) : link.to)}</p> : null}
          </div>
          {linkProblem ? (
            <p className="alert" role="alert">
              {refusalText(linkProblem)}
              {fieldProblem(linkProblem, 'to') ? `: ${fieldProblem(linkProblem, 'to')}` : ''}
            </p>
          ) : null}
          {page.sends.length > 0 ? (
            <>
              <h3>{m.sends}</h3>
              <ul className="list-plain">
                {page.sends.map((send) => (
                  <li key={send.id}>
                    {formatMoment(send.at)} · {send.channel === 'sms' ? m.bySms : m.byEmail} · {send.channel === 'sms' ? formatPhone(send.to) : send.to} ·{' '}
                    {send.state === 'sent' ? '✓' : `✗ ${send.error ?? ''}`}
                    {send.by ? <span className="muted"> · {send.by}</span> : null}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function Positions({ page }: { page: BillPage }) {
  return (
    <section className="panel" aria-labelledby="positions">
      <h2 id="positions">{m.positions}</h2>
      <div className="table-wrap" role="region" aria-labelledby="positions" tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">{m.position}</th>
              <th scope="col" className="num">
                {m.quantity}
              </th>
              <th scope="col" className="num">
                {m.price}
              </th>
              <th scope="col" className="num">
                {m.total}
              </th>
              <th scope="col">{m.vat}</th>
              <th scope="col">{m.paymentObject}</th>
            </tr>
          </thead>
          <tbody>
            {page.bill.items.map((item) => (
              <tr key={item.position}>
                <td>{item.name}</td>
                <td className="num">{String(item.quantity).replace('.', ',')}</td>
                <td className="num">{formatMoney(item.price)}</td>
                <td className="num">{formatMoney(item.amount)}</td>
                <td>{vatNames[item.vat] ?? item.vat}</td>
                <td>{paymentObjectNames[item.paymentObject] ?? item.paymentObject}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Webhooks({ page }: { page: BillPage }) {
  return (
    <section className="panel" aria-labelledby="webhooks">
      <h2 id="webhooks">{m.webhooks}</h2>
      {page.webhooks.length === 0 ? <p className="muted">{m.noWebhooks}</p> : null}
      <ul className="list-plain">
        {page.webhooks.map((event) => (
          <li key={event.id}>
            <strong>{event.type}</strong> · {webhookStateNames[event.state] ?? event.state} · {formatMoment(event.createdAt)}
            {event.deliveries.length > 0 ? (
              <ul>
                {event.deliveries.map((delivery, i) => (
                  <li key={i} className="muted">
                    {formatMoment(delivery.at)} · {delivery.statusCode !== null ? `HTTP ${delivery.statusCode}` : (delivery.error ?? '—')} · {delivery.durationMs} мс
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function History({ page }: { page: BillPage }) {
  if (page.history.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="history">
      <h2 id="history">{m.history}</h2>
      <ul className="list-plain">
        {page.history.map((line) => (
          <li key={line.id}>
            {formatMoment(line.at)} · {auditActionNames[line.action] ?? line.action} · <span className="muted">{line.by}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
