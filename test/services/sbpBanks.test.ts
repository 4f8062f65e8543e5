import fs from 'node:fs';
import path from 'node:path';
import { detectPlatform, deviceStorage } from '../../src/services/environment';
import { bankListMessages } from '../../src/services/bankListMessages';
import { lastUsedBankOf, rememberLastUsedBank } from '../../src/services/lastUsedBank';
import {
  bankAppHref,
  banksOf,
  BANK_ALIASES,
  findBanks,
  initialsOf,
  leadingCount,
  MOST_USED_BANK_IDS,
  orderBanks,
  searchKey,
  tileOf,
  webClientHref,
  type SbpBank,
} from '../../src/services/sbpBanks';

/** The list as GET /api/sbp-banks answers it, from the server's snapshot (NSPK, 192 banks). */
function snapshotBanks(): SbpBank[] {
  const file = JSON.parse(fs.readFileSync(path.join(__dirname, '../../server/data/sbp-banks.json'), 'utf8')) as { banks: Record<string, unknown>[] };
  return banksOf({
    banks: file.banks.map((bank) => ({
      ...bank,
      webClientUrl: bank.isWebClientActive ? bank.webClientUrl : null,
      logo: `/api/sbp-banks/logos/${String(bank.id)}`,
    })),
  });
}

const bank = (overrides: Partial<SbpBank> & Pick<SbpBank, 'id' | 'name'>): SbpBank => ({
  schema: `bank${overrides.id}`,
  package: null,
  webClientUrl: null,
  logo: null,
  ...overrides,
});

const SBER = bank({ id: '100000000111', name: 'Сбербанк', package: 'ru.sberbankmobile' });
const TBANK = bank({ id: '100000000004', name: 'Т-Банк', package: 'com.idamob.tinkoff.android', webClientUrl: 'https://www.tinkoff.ru/mybank/payments/qr-pay' });
const NO_PACKAGE = bank({ id: '100000000092', name: 'БыстроБанк' });
const PAYLOAD = 'https://qr.nspk.ru/AD10006M8KT8Q5L38MBPS2Q9BF6M4RM1?type=02&bank=100000000111&sum=1234567&cur=RUB&crc=AB12';

describe('the order of the list', () => {
  const banks = snapshotBanks();
  const names = (list: SbpBank[]) => list.map((b) => b.name);

  test('the six most used first, by id, in that order; then the rest by name', () => {
    const ordered = orderBanks(banks, null);
    expect(names(ordered.slice(0, 6))).toEqual(['Сбербанк', 'Т-Банк', 'Банк ВТБ', 'АЛЬФА-БАНК', 'Райффайзенбанк', 'Газпромбанк']);
    expect(ordered.slice(0, 6).map((b) => b.id)).toEqual([...MOST_USED_BANK_IDS]);
    const rest = names(ordered.slice(6));
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b, 'ru', { sensitivity: 'base', numeric: true })));
    expect(rest[0]).toBe('АБ РОССИЯ');
    expect(ordered).toHaveLength(192);
    expect(leadingCount(ordered, null)).toBe(6);
  });

  test('the bank this browser paid with last leads the list, before the six', () => {
    const sinara = banks.find((b) => b.name === 'Банк Синара')!;
    const ordered = orderBanks(banks, sinara.id);
    expect(names(ordered.slice(0, 7))).toEqual(['Банк Синара', 'Сбербанк', 'Т-Банк', 'Банк ВТБ', 'АЛЬФА-БАНК', 'Райффайзенбанк', 'Газпромбанк']);
    expect(names(ordered).filter((name) => name === 'Банк Синара')).toHaveLength(1);
    expect(leadingCount(ordered, sinara.id)).toBe(7);
  });

  test('a last-used bank among the six moves to the top and the others keep their order', () => {
    const ordered = orderBanks(banks, '100000000008');
    expect(names(ordered.slice(0, 6))).toEqual(['АЛЬФА-БАНК', 'Сбербанк', 'Т-Банк', 'Банк ВТБ', 'Райффайзенбанк', 'Газпромбанк']);
    expect(leadingCount(ordered, '100000000008')).toBe(6);
  });

  test('a remembered bank that has left the list changes nothing', () => {
    expect(orderBanks(banks, '199999999999')).toEqual(orderBanks(banks, null));
  });
});

describe('search', () => {
  const banks = orderBanks(snapshotBanks(), null);
  const found = (query: string) => findBanks(banks, query).map((b) => b.name);

  test("by name, whatever the case: 'альфа' finds АЛЬФА-БАНК", () => {
    expect(found('альфа')).toEqual(['АЛЬФА-БАНК']);
    expect(found('АЛЬФА')).toEqual(['АЛЬФА-БАНК']);
    expect(found('сбер')).toEqual(['Сбербанк']);
  });

  test.each([
    ['тинькофф', 'Т-Банк'],
    ['Tinkoff', 'Т-Банк'],
    ['сбер', 'Сбербанк'],
    ['sber', 'Сбербанк'],
    ['vtb', 'Банк ВТБ'],
    ['alfa', 'АЛЬФА-БАНК'],
    ['raiffeisen', 'Райффайзенбанк'],
    ['ozon', 'Озон Банк (Ozon)'],
  ])("by the name payers type, an old or a Latin one: '%s' finds %s", (query, name) => {
    expect(found(query)).toContain(name);
    expect(found(query).length).toBeLessThanOrEqual(2);
  });

  test('every alias names a bank of the list', () => {
    const ids = new Set(snapshotBanks().map((bank) => bank.id));
    expect(Object.keys(BANK_ALIASES).filter((id) => !ids.has(id))).toEqual([]);
  });

  test("'ё' and 'е' are the same letter, both ways", () => {
    expect(found('пойдем')).toEqual(['КБ Пойдём!']);
    expect(found('ПОЙДЁМ')).toEqual(['КБ Пойдём!']);
    expect(searchKey('Ёлка')).toBe(searchKey('елка'));
  });

  test('spaces, hyphens and punctuation do not matter', () => {
    expect(found('альфа банк')).toEqual(['АЛЬФА-БАНК']);
    expect(found('т банк')).toContain('Т-Банк');
    expect(found('  втб ')).toContain('Банк ВТБ');
  });

  test('the found banks keep the order of the list; an empty query is the whole list; nothing found is empty', () => {
    const many = findBanks(banks, 'банк');
    expect(many[0]!.name).toBe('Сбербанк');
    expect(many.length).toBeGreaterThan(100);
    expect(findBanks(banks, '   ')).toHaveLength(192);
    expect(found('несуществующий')).toEqual([]);
  });

  test('the live count reads as Russian does', () => {
    expect([1, 2, 5, 21, 22, 186].map(bankListMessages.found)).toEqual([
      'Найден 1 банк',
      'Найдено 2 банка',
      'Найдено 5 банков',
      'Найден 21 банк',
      'Найдено 22 банка',
      'Найдено 186 банков',
    ]);
  });
});

describe('the link that opens a bank app with the payment', () => {
  test("iOS: the payload with 'https:' replaced by the bank's scheme", () => {
    expect(bankAppHref(SBER, PAYLOAD, 'ios')).toBe(`bank100000000111://qr.nspk.ru/AD10006M8KT8Q5L38MBPS2Q9BF6M4RM1?type=02&bank=100000000111&sum=1234567&cur=RUB&crc=AB12`);
  });

  test('Android: an intent for the bank\'s package and scheme with the payload without its scheme', () => {
    expect(bankAppHref(SBER, PAYLOAD, 'android')).toBe(
      'intent://qr.nspk.ru/AD10006M8KT8Q5L38MBPS2Q9BF6M4RM1?type=02&bank=100000000111&sum=1234567&cur=RUB&crc=AB12#Intent;scheme=bank100000000111;package=ru.sberbankmobile;end',
    );
  });

  test('Android, a bank with no package: the plain payload', () => {
    expect(bankAppHref(NO_PACKAGE, PAYLOAD, 'android')).toBe(PAYLOAD);
    expect(bankAppHref(NO_PACKAGE, PAYLOAD, 'ios')).toBe(PAYLOAD.replace('https:', 'bank100000000092:'));
  });

  test('elsewhere (a desktop) the plain payload', () => {
    expect(bankAppHref(SBER, PAYLOAD, 'other')).toBe(PAYLOAD);
  });

  test('a sandbox payload over http is treated the same way', () => {
    const sandbox = 'http://127.0.0.1:3000/sandbox/sbp/order-1';
    expect(bankAppHref(SBER, sandbox, 'ios')).toBe('bank100000000111://127.0.0.1:3000/sandbox/sbp/order-1');
    expect(bankAppHref(SBER, sandbox, 'android')).toBe('intent://127.0.0.1:3000/sandbox/sbp/order-1#Intent;scheme=bank100000000111;package=ru.sberbankmobile;end');
  });

  test('a payload that is no web address is never rewritten', () => {
    expect(bankAppHref(SBER, 'javascript:alert(1)', 'ios')).toBe('javascript:alert(1)');
  });

  test("the web client: NSPK's convention, the client's address and the QR's id", () => {
    expect(webClientHref(TBANK, PAYLOAD)).toBe('https://www.tinkoff.ru/mybank/payments/qr-pay/AD10006M8KT8Q5L38MBPS2Q9BF6M4RM1');
    expect(webClientHref({ ...TBANK, webClientUrl: 'https://bank.example/qr/' }, PAYLOAD)).toBe('https://bank.example/qr/AD10006M8KT8Q5L38MBPS2Q9BF6M4RM1');
    expect(webClientHref(SBER, PAYLOAD)).toBeNull();
    expect(webClientHref(TBANK, 'not a url')).toBeNull();
  });
});

describe("the server's answer, read defensively", () => {
  test('keeps well-formed banks and leaves out the rest', () => {
    const banks = banksOf({
      banks: [
        { id: '100000000111', name: 'Сбербанк', schema: 'bank100000000111', package: 'ru.sberbankmobile', webClientUrl: null, logo: '/api/sbp-banks/logos/100000000111' },
        { id: '100000000002', name: 'Скриптбанк', schema: 'javascript', package: null },
        { id: '100000000003', name: '', schema: 'bank100000000003' },
        null,
        { id: '100000000004', name: 'Т-Банк', schema: 'bank100000000004', package: '', webClientUrl: 'http://insecure.example', logo: 'https://qr.nspk.ru/logo.png' },
      ],
    });
    expect(banks).toEqual([
      { id: '100000000111', name: 'Сбербанк', schema: 'bank100000000111', package: 'ru.sberbankmobile', webClientUrl: null, logo: '/api/sbp-banks/logos/100000000111' },
      // No package, no web client over http, no image from another origin.
      { id: '100000000004', name: 'Т-Банк', schema: 'bank100000000004', package: null, webClientUrl: null, logo: null },
    ]);
  });

  test.each([null, undefined, 'text', {}, { banks: 'many' }])('%p has no banks', (answer) => {
    expect(banksOf(answer)).toEqual([]);
  });
});

describe('initials where a logo is missing', () => {
  test.each([
    ['Сбербанк', 'Сб'],
    ['Т-Банк', 'Т'],
    ['Банк ВТБ', 'ВТБ'],
    ['АЛЬФА-БАНК', 'Ал'],
    ['Райффайзенбанк', 'Ра'],
    ['МОСКОВСКИЙ КРЕДИТНЫЙ БАНК', 'МК'],
    ['Озон Банк (Ozon)', 'Оз'],
    ['Банк 131', '131'],
    ['банк Элита', 'Эл'],
    ['КБ Пойдём!', 'По'],
    ['Кредит Европа Банк (Россия)', 'КЕ'],
  ])('%s → %s', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });

  test('every bank of the list gets one to three letters and one of the eight tiles, the same every time', () => {
    for (const b of snapshotBanks()) {
      expect(initialsOf(b.name)).toMatch(/^[\p{L}\p{N}]{1,3}$/u);
      expect(tileOf(b.id)).toBe(tileOf(b.id));
      expect(tileOf(b.id)).toBeGreaterThanOrEqual(0);
      expect(tileOf(b.id)).toBeLessThan(8);
    }
  });
});

describe('the bank paid with last, kept on this device', () => {
  const memory = () => {
    const items = new Map<string, string>();
    return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), items };
  };

  test('remembered and read back', () => {
    const storage = memory();
    expect(lastUsedBankOf(storage)).toBeNull();
    rememberLastUsedBank(storage, '100000000004');
    expect(lastUsedBankOf(storage)).toBe('100000000004');
    rememberLastUsedBank(storage, '100000000111');
    expect(lastUsedBankOf(storage)).toBe('100000000111');
  });

  test('something else in the slot is ignored; nothing but a bank id is written', () => {
    const storage = memory();
    storage.setItem('checkout.sbp.lastUsedBank', '<img onerror=alert(1)>');
    expect(lastUsedBankOf(storage)).toBeNull();
    rememberLastUsedBank(storage, 'not-an-id');
    expect(storage.items.get('checkout.sbp.lastUsedBank')).toBe('<img onerror=alert(1)>');
  });

  test('a browser that refuses storage, or has none, loses nothing but the order', () => {
    const refusing = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(lastUsedBankOf(refusing)).toBeNull();
    expect(() => rememberLastUsedBank(refusing, '100000000004')).not.toThrow();
    expect(lastUsedBankOf(null)).toBeNull();
    expect(() => rememberLastUsedBank(null, '100000000004')).not.toThrow();
  });

  test('a window whose localStorage throws on access gives no storage', () => {
    const blocked = {} as Window;
    Object.defineProperty(blocked, 'localStorage', {
      get: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    });
    expect(deviceStorage(blocked)).toBeNull();
    expect(deviceStorage(window)).toBe(window.localStorage);
  });
});

describe('the platform, from the browser', () => {
  const on = (userAgent: string, maxTouchPoints = 0) => ({ navigator: { userAgent, maxTouchPoints } }) as unknown as Window;

  test.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 0, 'ios'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1', 0, 'ios'],
    // iPadOS asks for desktop pages as a Mac; its touch screen gives it away.
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 5, 'ios'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36', 5, 'android'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 0, 'other'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36', 0, 'other'],
  ] as const)('%s (%i touch points) → %s', (userAgent, touch, platform) => {
    expect(detectPlatform(on(userAgent, touch))).toBe(platform);
  });
});
