/**
 * Sending a bill's pay link to its customer from the desk: by SMS through the SMS provider (the same port the payers'
 * codes go through) or by e-mail through the mail server. The link is the one the merchant API hands out (the bill's
 * public link id, never its objectOID). Only an unpaid bill's link is sent; at most five of each kind per bill an
 * hour, so a customer is never flooded. Each send is recorded with what became of it (the bill's page lists them) and
 * in the audit log; the provider's or mail server's failure is said, and the member of staff may try again.
 */
import { billByOid } from '../billing/queries';
import { unpayableReason } from '../billing/status';
import type { BillRow } from '../billing/tables';
import type { MailSender } from '../mail/port';
import { roublesText } from '../platform/money';
import { isPhone, isPlausibleEmail } from '../platform/patterns';
import { html } from '../platform/render';
import { logoOf, payerMerchant, type PayerMerchant, type ProfileDefaults } from '../profile/profile';
import type { TextProvider } from '../smsProvider/port';
import type { Store } from '../store/store';
import type { Staff } from './access';
import { audit } from './audit';
import { csvMoment } from './csv';
import { DeskError } from './errors';
import type { LinkSendRow } from './tables';

export type LinkChannel = 'sms' | 'email';

/** Sends of one kind per bill per hour. */
export const SENDS_PER_HOUR = 5;

export interface LinkDeps {
  store: Store;
  texts: TextProvider;
  mail: MailSender;
  profile: ProfileDefaults;
  publicUrl: () => string;
}

/** The page a payer opens to pay the bill. */
export const payUrlOf = (bill: Pick<BillRow, 'link_id'>, publicUrl: string) => `${publicUrl}/pay/${bill.link_id}`;

/** The SMS: who asks, how much, the link (short: a Cyrillic text is 70 characters a part). */
export const linkSms = (bill: BillRow, merchant: PayerMerchant, url: string) => `${merchant.name}: счет на ${roublesText(bill.sum_kopecks)} Оплатить: ${url}`;

/** The letter: the bill in a few lines, the link, how to reach the merchant; the logo when there is one. */
export function linkLetter(bill: BillRow, merchant: PayerMerchant, url: string, hasLogo: boolean) {
  const contacts = [merchant.supportPhone, merchant.supportEmail].filter(Boolean).join(', ');
  const lines = [
    bill.client_name ? `Здравствуйте, ${bill.client_name}!` : 'Здравствуйте!',
    '',
    `${merchant.name} выставил вам счет.`,
    `Назначение: ${bill.purpose}`,
    `Сумма: ${roublesText(bill.sum_kopecks)}`,
    ...(bill.expires_at !== null ? [`Оплатить до: ${csvMoment(bill.expires_at)} (МСК)`] : []),
    '',
    `Оплатить: ${url}`,
    ...(contacts ? ['', `Вопросы: ${contacts}`] : []),
  ];
  const markup = html`<!doctype html><html lang="ru"><body style="font-family: Arial, sans-serif; color: #1a1f36">
${hasLogo ? html`<p><img src="cid:logo" alt="${merchant.name}" style="max-height: 48px"></p>` : null}
<p>${lines[0]!}</p>
<p>${merchant.name} выставил вам счет.</p>
<p>Назначение: ${bill.purpose}<br>Сумма: <strong>${roublesText(bill.sum_kopecks)}</strong>${bill.expires_at !== null ? html`<br>Оплатить до: ${csvMoment(bill.expires_at)} (МСК)` : null}</p>
<p><a href="${url}" style="display: inline-block; padding: 12px 20px; background: #1f5eff; color: #fff; border-radius: 8px; text-decoration: none">Оплатить счет</a></p>
<p style="color: #4a5568">Или откройте ссылку: ${url}</p>
${contacts ? html`<p style="color: #4a5568">Вопросы: ${contacts}</p>` : null}
</body></html>`;
  return { subject: `Счет на оплату: ${bill.purpose.slice(0, 120)}`, text: lines.join('\n'), html: markup.markup };
}

async function recentSends(store: Store, billOid: string, channel: LinkChannel): Promise<number> {
  const row = await store.db
    .selectFrom('desk_link_sends')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('bill_oid', '=', billOid)
    .where('channel', '=', channel)
    .where('state', '=', 'sent')
    .where('created_at', '>', store.now() - 60 * 60_000)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A bill's sends, newest first, with who sent each. */
export const sendsOfBill = (store: Store, billOid: string): Promise<(LinkSendRow & { staff_email: string | null })[]> =>
  store.db
    .selectFrom('desk_link_sends')
    .leftJoin('desk_staff', 'desk_staff.id', 'desk_link_sends.staff_id')
    .selectAll('desk_link_sends')
    .select('desk_staff.email as staff_email')
    .where('desk_link_sends.bill_oid', '=', billOid)
    .orderBy('desk_link_sends.id', 'desc')
    .limit(100)
    .execute();

/**
 * Sends the link of an unpaid bill to `to` (absent: the bill's customer's phone or e-mail); answers the send as
 * recorded. Refused before sending (DeskError) for a bill that is not payable, no or a bad recipient, the hourly cap,
 * or e-mail with no mail server; a send the provider or server did not take is recorded as failed and refused with 502.
 */
export async function sendPayLink(deps: LinkDeps, staff: Staff, billOid: string, channel: LinkChannel, to: string | null): Promise<LinkSendRow> {
  const { store } = deps;
  const bill = await billByOid(store, billOid);
  if (!bill) throw new DeskError(404, 'not_found', 'Счет не найден');
  // A link is sent only for a bill the payer can pay now, refused in the payer's own words otherwise.
  const unpayable = unpayableReason(bill, store.now());
  if (unpayable) throw new DeskError(409, 'bill_not_payable', unpayable);
  if (channel === 'email' && !deps.mail.configured) throw new DeskError(409, 'mail_off', 'Почта не настроена: задайте SMTP_URL и MAIL_FROM');
  const recipient = (to ?? (channel === 'sms' ? bill.client_phone : bill.client_email) ?? '').trim().toLowerCase();
  if (!recipient) throw new DeskError(400, 'no_recipient', channel === 'sms' ? 'У счета нет телефона клиента: укажите номер' : 'У счета нет e-mail клиента: укажите адрес', [{ field: 'to', message: 'нужен получатель' }]);
  if (channel === 'sms' ? !isPhone(recipient) : !isPlausibleEmail(recipient)) {
    throw new DeskError(400, 'invalid_request', 'Проверьте получателя', [{ field: 'to', message: channel === 'sms' ? '11 цифр, начиная с 79' : 'адрес электронной почты' }]);
  }
  if ((await recentSends(store, billOid, channel)) >= SENDS_PER_HOUR) {
    throw new DeskError(429, 'too_many_sends', `Ссылку на этот счет уже отправляли ${channel === 'sms' ? 'по СМС' : 'по почте'} ${SENDS_PER_HOUR} раз за час: попробуйте позже`);
  }

  const merchant = await payerMerchant(store, deps.profile);
  const url = payUrlOf(bill, deps.publicUrl());
  let outcome: { providerId: string | null; error: string | null };
  try {
    if (channel === 'sms') {
      outcome = { providerId: (await deps.texts.send(recipient, linkSms(bill, merchant, url))).smsId, error: null };
    } else {
      const logo = await logoOf(store);
      const letter = linkLetter(bill, merchant, url, logo !== undefined);
      const sent = await deps.mail.send({ to: recipient, ...letter, ...(logo ? { inline: [{ cid: 'logo', type: logo.type, content: logo.bytes }] } : {}) });
      outcome = { providerId: sent.messageId, error: null };
    }
  } catch (error) {
    outcome = { providerId: null, error: (error instanceof Error ? error.message : String(error)).slice(0, 500) };
  }

  const row = await store.transaction(async (tx) => {
    const sent = await tx.db
      .insertInto('desk_link_sends')
      .values({ bill_oid: billOid, channel, recipient, state: outcome.error ? 'failed' : 'sent', provider_id: outcome.providerId, error: outcome.error, staff_id: staff.id, created_at: tx.now() })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(tx, staff, outcome.error ? 'link.failed' : 'link.sent', billOid, { channel, to: recipient, ...(outcome.error ? { error: outcome.error } : {}) });
    return sent;
  });
  if (outcome.error) {
    throw new DeskError(502, 'send_failed', channel === 'sms' ? 'СМС не отправлено: провайдер не принял его. Попробуйте еще раз' : 'Письмо не отправлено: почтовый сервер не принял его. Попробуйте еще раз');
  }
  return row;
}

