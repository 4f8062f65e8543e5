import fs from 'node:fs';
import path from 'node:path';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BankListDependencies } from '../../src/actors/bankChoice';
import type { Api } from '../../src/services/api';
import { bankListMessages as b } from '../../src/services/bankListMessages';
import type { Platform } from '../../src/services/environment';
import { stepMessages } from '../../src/services/stepMessages';
import type { PageConfig } from '../../src/services/pageConfig';
import { PageContext } from '../../src/views/appContext';
import { chunkViews, pageCode } from '../../src/pageCode';
import { Sbp } from '../../src/views/Sbp';
import { deferred, flush } from '../fixtures/fakes';
import { checkoutAtChoose } from './payments.fixture';

const t = stepMessages.sbp;
const PAYLOAD = 'https://qr.nspk.ru/AD10006M8KT8Q5L38MBPS2Q9BF6M4RM1?type=02&bank=100000000111&sum=1234567&cur=RUB&crc=AB12';
const sbpAnswer = { success: true, info: { orderId: 'order-2', data: { payload: PAYLOAD, qrcId: 'qr-2', image: { content: 'iVBORw0KGgo=' } } } };
const KEY = 'checkout.sbp.lastUsedBank';

/** GET /api/sbp-banks as the server answers it, from its snapshot. */
function listAnswer() {
  const file = JSON.parse(fs.readFileSync(path.join(__dirname, '../../server/data/sbp-banks.json'), 'utf8')) as { updatedAt: string; banks: Record<string, unknown>[] };
  return {
    updatedAt: file.updatedAt,
    banks: file.banks.map((bank) => ({
      id: bank.id,
      name: bank.name,
      schema: bank.schema,
      package: bank.package || null,
      webClientUrl: bank.isWebClientActive ? bank.webClientUrl : null,
      logo: `/api/sbp-banks/logos/${String(bank.id)}`,
    })),
  };
}

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), items };
}

interface Options {
  isDesktop?: boolean;
  platform?: Platform;
  stored?: Record<string, string>;
  list?: () => Promise<unknown>;
}

/** The fast-payment step, mounted as in the page: the page context carries what the bank list needs. */
async function renderSbp({ isDesktop = false, platform = 'ios', stored = {}, list = async () => listAnswer() }: Options = {}) {
  const checkout = await checkoutAtChoose({ isDesktop });
  checkout.actor.send({ type: 'payment.select', oid: 'type-sbp' });
  checkout.actor.send({ type: 'payment.pay' });
  checkout.requestPaymentUrl.last.answer.resolve(sbpAnswer);
  await flush();
  const storage = memoryStorage(stored);
  const sbpBanks = jest.fn(list);
  const logged: unknown[] = [];
  const bankList: BankListDependencies = {
    api: { sbpBanks } as unknown as Api,
    env: { isDesktop, isSafariDesktop: false, platform, storage, navigate: () => undefined, reload: () => undefined },
    log: (error) => void logged.push(error),
  };
  const page = { config: {} as PageConfig, goBack: () => checkout.actor.send({ type: 'nav.back' }), bankList, views: chunkViews(pageCode()) };
  render(
    <PageContext.Provider value={page}>
      <Sbp actor={checkout.actor} />
    </PageContext.Provider>,
  );
  await act(flush);
  return { ...checkout, storage, sbpBanks, logged };
}

const bankLinks = (list: HTMLElement) => within(list).getAllByRole('link').filter((link) => !/в браузере/.test(link.textContent ?? ''));
const names = (list: HTMLElement) => bankLinks(list).map((link) => link.querySelector('.bank-name')?.textContent);

// jsdom cannot navigate: a tap stays on the page (the bank's app would open in a phone's browser).
beforeEach(() => document.addEventListener('click', stopNavigation, true));
afterEach(() => document.removeEventListener('click', stopNavigation, true));
const stopNavigation = (event: Event) => event.preventDefault();

describe('on a phone', () => {
  test('the title, the amount above the list, the six most used banks in a list named by the title, all banks behind a button', async () => {
    await renderSbp();
    expect(screen.getByRole('heading', { level: 1, name: b.chooseBank })).toBeInTheDocument();
    expect(screen.getByText(b.amount).parentElement).toHaveTextContent('Сумма к оплате 12 345,67 руб.');
    const list = screen.getByRole('list', { name: b.chooseBank });
    expect(names(list)).toEqual(['Сбербанк', 'Т-Банк', 'Банк ВТБ', 'АЛЬФА-БАНК', 'Райффайзенбанк', 'Газпромбанк']);
    // The amount comes before the list in the page.
    expect(screen.getByText(b.amount).compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();

    const all = screen.getByRole('button', { name: b.showAll(186) });
    expect(all).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(all);
    expect(screen.getByRole('button', { name: b.hideAll })).toHaveAttribute('aria-expanded', 'true');
    const rest = screen.getByRole('list', { name: b.allBanks });
    expect(names(rest)).toHaveLength(186);
    expect(names(rest)[0]).toBe('АБ РОССИЯ');
  });

  test("iOS: each bank opens its app by its scheme with the payment; 'Открыть приложение банка' (another bank) is the plain payload; the QR stays", async () => {
    await renderSbp({ platform: 'ios' });
    expect(screen.getByRole('link', { name: 'Сбербанк' })).toHaveAttribute('href', PAYLOAD.replace('https:', 'bank100000000111:'));
    // SPEC's link to the payload, carried by the row for a bank not in the list.
    expect(screen.getByRole('link', { name: `${t.openBankApp} ${b.otherBankNote}` })).toHaveAttribute('href', PAYLOAD);
    await userEvent.click(screen.getByRole('button', { name: t.showQr }));
    expect(screen.getByRole('img', { name: t.qrAlt })).toBeInTheDocument();
  });

  test('Android: each bank opens by an intent for its package, a bank without one by the payload', async () => {
    await renderSbp({ platform: 'android' });
    expect(screen.getByRole('link', { name: 'Сбербанк' })).toHaveAttribute(
      'href',
      `intent://${PAYLOAD.replace('https://', '')}#Intent;scheme=bank100000000111;package=ru.sberbankmobile;end`,
    );
    await userEvent.type(screen.getByRole('searchbox', { name: b.searchLabel }), 'Металлинвест');
    expect(screen.getByRole('link', { name: 'Металлинвестбанк' })).toHaveAttribute('href', PAYLOAD);
  });

  test('a bank with a web client offers it too, in a new tab, named by the bank, as a control of its own beside the app link', async () => {
    await renderSbp();
    const web = screen.getByRole('link', { name: `Т-Банк, ${b.webClient} ${b.newTab}` });
    // Not inside the app link (a tap on the row opens the app, never the website): siblings in the row.
    const app = screen.getByRole('link', { name: 'Т-Банк' });
    expect(app.contains(web)).toBe(false);
    expect(web.parentElement).toBe(app.parentElement);
    expect(web).toHaveAttribute('href', 'https://www.tinkoff.ru/mybank/payments/qr-pay/AD10006M8KT8Q5L38MBPS2Q9BF6M4RM1');
    expect(web).toHaveAttribute('target', '_blank');
    expect(web).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.queryByRole('link', { name: /Сбербанк, в браузере/ })).toBeNull();
  });

  test('the tapped bank is remembered on this device, by its app link or its web client', async () => {
    const { storage, sbpBanks } = await renderSbp();
    await userEvent.click(screen.getByRole('link', { name: 'Банк ВТБ' }));
    expect(storage.items.get(KEY)).toBe('110000000005');
    await userEvent.click(screen.getByRole('link', { name: /^Т-Банк, в браузере/ }));
    expect(storage.items.get(KEY)).toBe('100000000004');
    // Nothing about the choice goes to the server: the list call is the only one.
    expect(sbpBanks).toHaveBeenCalledTimes(1);
  });

  test('the bank paid with last leads the list next time, marked in words', async () => {
    await renderSbp({ stored: { [KEY]: '100000000003' } });
    const list = screen.getByRole('list', { name: b.chooseBank });
    expect(names(list)).toEqual(['Банк Синара', 'Сбербанк', 'Т-Банк', 'Банк ВТБ', 'АЛЬФА-БАНК', 'Райффайзенбанк', 'Газпромбанк']);
    expect(bankLinks(list)[0]).toHaveAccessibleName(`Банк Синара ${b.lastUsed}`);
    expect(within(list).getAllByText(b.lastUsed)).toHaveLength(1);
    expect(screen.getByRole('button', { name: b.showAll(185) })).toBeInTheDocument();
  });

  test("search: case and 'ё' do not matter, the count is announced as the payer types, nothing found points to 'Другой банк'", async () => {
    await renderSbp();
    const search = screen.getByRole('searchbox', { name: b.searchLabel });
    // The live count is the search field's description, so it is also read when the field is focused again.
    const count = document.getElementById(search.getAttribute('aria-describedby')!)!;
    expect(count).toHaveAttribute('role', 'status');
    expect(search).toHaveAccessibleDescription('');
    await userEvent.type(search, 'альфа');
    expect(count).toHaveTextContent('Найден 1 банк');
    expect(search).toHaveAccessibleDescription('Найден 1 банк');
    expect(names(screen.getByRole('list', { name: b.foundBanks }))).toEqual(['АЛЬФА-БАНК']);
    expect(screen.queryByRole('button', { name: /Все банки/ })).toBeNull();

    await userEvent.clear(search);
    await userEvent.type(search, 'ПОЙДЕМ');
    expect(names(screen.getByRole('list', { name: b.foundBanks }))).toEqual(['КБ Пойдём!']);

    await userEvent.clear(search);
    await userEvent.type(search, 'втб');
    expect(count).toHaveTextContent(/^Найден[о]? \d+ банк/);

    await userEvent.clear(search);
    await userEvent.type(search, 'нет такого');
    expect(count).toHaveTextContent(b.notFound);
    expect(screen.queryByRole('list', { name: b.foundBanks })).toBeNull();
    expect(screen.getByRole('link', { name: new RegExp(`^${t.openBankApp}`) })).toBeInTheDocument();

    // The names payers type: an old one, a Latin one.
    await userEvent.clear(search);
    await userEvent.type(search, 'тинькофф');
    expect(names(screen.getByRole('list', { name: b.foundBanks }))).toEqual(['Т-Банк']);
    await userEvent.clear(search);
    await userEvent.type(search, 'sber');
    expect(names(screen.getByRole('list', { name: b.foundBanks }))).toEqual(['Сбербанк']);

    await userEvent.clear(search);
    expect(count).toHaveTextContent('');
    expect(screen.getByRole('list', { name: b.chooseBank })).toBeInTheDocument();
  });

  test('while the list loads the page says so; a list that fails leaves SPEC\'s bank-app link and the QR, and is logged', async () => {
    const answer = deferred<unknown>();
    const { logged } = await renderSbp({ list: () => answer.promise });
    expect(screen.getByText(b.loadingBanks)).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('link', { name: t.openBankApp })).toBeNull();
    await act(async () => {
      answer.reject(new Error('503'));
      await flush();
    });
    expect(screen.getByRole('link', { name: t.openBankApp })).toHaveAttribute('href', PAYLOAD);
    expect(screen.getByRole('button', { name: t.showQr })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: new RegExp(`^${t.openBankApp}`) })).toHaveLength(1);
    expect(logged).toEqual([new Error('503')]);
  });

  test('a short list has no search field', async () => {
    await renderSbp({ list: async () => ({ banks: listAnswer().banks.slice(0, 5) }) });
    expect(names(screen.getByRole('list', { name: b.chooseBank }))).toHaveLength(5);
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /Все банки/ })).toBeNull();
  });

  test('a logo that fails leaves the initials, and the tile keeps its size', async () => {
    await renderSbp();
    const row = screen.getByRole('link', { name: 'Сбербанк' }).closest('li')!;
    const mark = row.querySelector('.bank-mark')!;
    expect(mark).toHaveTextContent('Сб');
    expect(mark).toHaveAttribute('aria-hidden', 'true');
    const logo = mark.querySelector('img')!;
    expect(logo).toHaveAttribute('src', '/api/sbp-banks/logos/100000000111');
    expect(logo).toHaveAttribute('loading', 'lazy');
    expect(logo).toHaveAttribute('alt', '');
    expect(logo).not.toHaveClass('is-shown');
    fireEvent.error(logo);
    expect(mark.querySelector('img')).toBeNull();
    expect(mark).toHaveTextContent('Сб');
    const other = screen.getByRole('link', { name: 'Т-Банк' }).closest('li')!.querySelector('img')!;
    fireEvent.load(other);
    expect(other).toHaveClass('is-shown');
  });
});

describe('on a desktop', () => {
  test('the QR stays; the list opens under it on request, with plain payload links and the web clients', async () => {
    const { sbpBanks } = await renderSbp({ isDesktop: true, platform: 'other' });
    expect(screen.getByText(t.scanQr)).toBeInTheDocument();
    expect(screen.getByRole('img', { name: t.qrAlt })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'СБП' })).toBeInTheDocument();
    expect(sbpBanks).not.toHaveBeenCalled();
    expect(screen.queryByRole('list')).toBeNull();

    const open = screen.getByRole('button', { name: b.openList });
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(open);
    await act(flush);
    expect(sbpBanks).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: b.closeList })).toHaveAttribute('aria-expanded', 'true');
    const list = screen.getByRole('list', { name: b.chooseBank });
    expect(screen.getByRole('heading', { level: 2, name: b.chooseBank })).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: 'Сбербанк' })).toHaveAttribute('href', PAYLOAD);
    expect(within(list).getByRole('link', { name: /^Т-Банк, в браузере/ })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: b.closeList }));
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.getByRole('img', { name: t.qrAlt })).toBeInTheDocument();
  });

  test('a desktop whose list fails keeps just the QR', async () => {
    await renderSbp({ isDesktop: true, platform: 'other', list: async () => Promise.reject(new Error('down')) });
    await userEvent.click(screen.getByRole('button', { name: b.openList }));
    await act(flush);
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.queryByRole('link', { name: t.openBankApp })).toBeNull();
    expect(screen.getByRole('img', { name: t.qrAlt })).toBeInTheDocument();
  });
});
