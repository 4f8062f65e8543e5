import { hashPassword, verifyPassword } from '../../../server/accounts/passwords';
import { optionsFromEnv, passwordCostFrom } from '../../../server/environment';

test('PASSWORD_COST unset: new passwords are hashed at the production cost', () => {
  expect(passwordCostFrom({}, true)).toEqual({});
  expect(optionsFromEnv({}).passwordCost).toBe(16384);
  expect(optionsFromEnv({ SANDBOX: '0' }).passwordCost).toBe(16384);
});

test('a merchant may raise the cost, to a power of two up to 1048576', () => {
  expect(optionsFromEnv({ SANDBOX: '0', PASSWORD_COST: '65536' }).passwordCost).toBe(65536);
  expect(() => passwordCostFrom({ PASSWORD_COST: '20000' }, false)).toThrow('PASSWORD_COST must be a power of two from 16384 to 1048576 (it is "20000")');
  expect(() => passwordCostFrom({ PASSWORD_COST: '2097152' }, false)).toThrow('PASSWORD_COST must be a whole number from 16384 to 1048576 (it is "2097152")');
  expect(() => passwordCostFrom({ PASSWORD_COST: 'fast' }, true)).toThrow('PASSWORD_COST must be a whole number from 1024 to 1048576 (it is "fast")');
});

test('only the sandbox hashes below the production cost (its tests’ servers)', () => {
  expect(passwordCostFrom({ PASSWORD_COST: '1024' }, true)).toEqual({ passwordCost: 1024 });
  expect(() => passwordCostFrom({ PASSWORD_COST: '1024' }, false)).toThrow('PASSWORD_COST must be a whole number from 16384 to 1048576 (it is "1024")');
  expect(() => optionsFromEnv({ SANDBOX: '0', PASSWORD_COST: '8192' })).toThrow(/^PASSWORD_COST must be a whole number from 16384/);
});

test('a hash keeps its own cost: one made at another cost still signs in', async () => {
  const cheap = await hashPassword('correct horse', optionsFromEnv({ PASSWORD_COST: '1024' }).passwordCost);
  expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
  expect(await verifyPassword('correct horse', cheap)).toBe(true);
  expect(await verifyPassword('wrong horse', cheap)).toBe(false);
});
