import { formatAmount, formatMoney, formatNumber, formatPhone, formatPoints, plural, pointsWord } from '../../src/services/format';
import { secondsWord } from '../../src/services/stepMessages';

const NBSP = '\u00a0';

describe('Russian plurals', () => {
  test.each([
    [0, 'баллов', 'секунд'],
    [1, 'балл', 'секунду'],
    [2, 'балла', 'секунды'],
    [4, 'балла', 'секунды'],
    [5, 'баллов', 'секунд'],
    [11, 'баллов', 'секунд'],
    [12, 'баллов', 'секунд'],
    [14, 'баллов', 'секунд'],
    [21, 'балл', 'секунду'],
    [22, 'балла', 'секунды'],
    [25, 'баллов', 'секунд'],
    [101, 'балл', 'секунду'],
    [111, 'баллов', 'секунд'],
    [112, 'баллов', 'секунд'],
    [1000, 'баллов', 'секунд'],
  ])('%i → %s, %s', (n, points, seconds) => {
    expect(pointsWord(n)).toBe(points);
    expect(secondsWord(n)).toBe(seconds);
  });

  test('negative and fractional counts take the form of their whole part', () => {
    expect(plural(-1, ['one', 'few', 'many'])).toBe('one');
    expect(plural(-22, ['one', 'few', 'many'])).toBe('few');
    expect(plural(2.7, ['one', 'few', 'many'])).toBe('few');
  });
});

describe('money and numbers with Russian grouping', () => {
  test('two decimals after a comma, groups of three split by a no-break space', () => {
    expect(formatMoney(12345.67)).toBe(`12${NBSP}345,67 руб.`);
    expect(formatMoney(1234567.5)).toBe(`1${NBSP}234${NBSP}567,50 руб.`);
    expect(formatMoney(0)).toBe('0,00 руб.');
    expect(formatMoney(999.999)).toBe(`1${NBSP}000,00 руб.`);
    expect(formatAmount(185.19)).toBe('185,19');
  });

  test('whole numbers and points', () => {
    expect(formatNumber(4500)).toBe(`4${NBSP}500`);
    expect(formatNumber(999)).toBe('999');
    expect(formatPoints(3000)).toBe(`3${NBSP}000 баллов`);
    expect(formatPoints(21)).toBe('21 балл');
  });
});

describe('phone display', () => {
  test('11 digits show as +7 (999) 000-00-01, whatever the mask left', () => {
    expect(formatPhone('79990000001')).toBe('+7 (999) 000-00-01');
    expect(formatPhone('+7 (999) 000-00-01')).toBe('+7 (999) 000-00-01');
  });
  test('anything else is shown as given', () => {
    expect(formatPhone('')).toBe('');
    expect(formatPhone('7999')).toBe('7999');
  });
});
