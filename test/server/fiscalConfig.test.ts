import { fiscalFrom, optionsFromEnv } from '../../server/environment';

describe('the fiscal settings (FISCAL_*)', () => {
  test('the sandbox runs with a tax system, so every demo payment carries a receipt; without the sandbox, none unless set', () => {
    expect(optionsFromEnv({}).fiscal).toEqual({ taxSystem: 'osn', vat: 'none', paymentMethod: 'full_prepayment', paymentObject: 'commodity', ffd: '1.2' });
    expect(fiscalFrom({}, false).taxSystem).toBeNull();
    expect(fiscalFrom({ FISCAL_TAX_SYSTEM: 'none' }, true).taxSystem).toBeNull();
  });

  test('every setting read from its variable', () => {
    expect(
      fiscalFrom(
        { FISCAL_TAX_SYSTEM: 'usn_income', FISCAL_DEFAULT_VAT: 'vat22', FISCAL_DEFAULT_PAYMENT_METHOD: 'advance', FISCAL_DEFAULT_PAYMENT_OBJECT: 'service', FISCAL_FFD: '1.05' },
        false,
      ),
    ).toEqual({ taxSystem: 'usn_income', vat: 'vat22', paymentMethod: 'advance', paymentObject: 'service', ffd: '1.05' });
  });

  test('a bad value stops the start, naming the variable and what it may be', () => {
    expect(() => optionsFromEnv({ FISCAL_TAX_SYSTEM: 'usn' })).toThrow('FISCAL_TAX_SYSTEM must be one of osn, usn_income, usn_income_outcome, envd, esn, patent (it is "usn")');
    expect(() => optionsFromEnv({ FISCAL_DEFAULT_VAT: '20' })).toThrow(/^FISCAL_DEFAULT_VAT must be one of none, vat0, /);
    expect(() => optionsFromEnv({ FISCAL_DEFAULT_PAYMENT_METHOD: 'credit' })).toThrow(/^FISCAL_DEFAULT_PAYMENT_METHOD must be one of/);
    expect(() => optionsFromEnv({ FISCAL_DEFAULT_PAYMENT_OBJECT: 'goods' })).toThrow(/^FISCAL_DEFAULT_PAYMENT_OBJECT must be one of/);
    expect(() => optionsFromEnv({ FISCAL_FFD: '1.1' })).toThrow('FISCAL_FFD must be one of 1.05, 1.2 (it is "1.1")');
  });
});
