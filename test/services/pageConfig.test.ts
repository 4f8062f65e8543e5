import { readCookie, readManagerId } from '../../src/services/pageConfig';

describe('manager_id from its cookie', () => {
  test('sent when it fits the pattern the server checks', () => {
    expect(readManagerId('a=1; manager_id=Mgr_7.east-1; b=2')).toBe('Mgr_7.east-1');
    expect(readManagerId('a=1')).toBeNull();
  });

  test.each([
    ['markup', encodeURIComponent('"><img src=x>')],
    ['spaces', 'mgr%201'],
    ['too long', 'm'.repeat(65)],
    ['empty', ''],
    ['a broken escape', '%E0%A4%A'],
  ])('not sent when it has %s (the server would refuse the payment)', (_what, value) => {
    expect(readManagerId(`manager_id=${value}`)).toBeNull();
  });

  test('a broken escape in a cookie reads as no value instead of throwing', () => {
    expect(readCookie('x', 'x=%E0%A4%A')).toBeNull();
  });
});
