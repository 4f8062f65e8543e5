/**
 * The fiscal receipt's codes (Russian cash-register law): the readable names the merchant API, the configuration and
 * the views use, and the numbers the acquirer's protocol sends for them, in one table each. Imports nothing, so the
 * configuration, billing, the acquirer adapter and the sandbox's checks all read the same table.
 */

/** VAT of a position: name → the protocol's `taxType`. The 22 % codes apply from 1 January 2026. */
export const VAT_CODES = {
  none: 0,
  vat0: 1,
  vat10: 2,
  vat110: 4,
  vat20: 6,
  vat120: 7,
  vat5: 10,
  vat105: 11,
  vat7: 12,
  vat107: 13,
  vat22: 14,
  vat122: 15,
} as const;
export type Vat = keyof typeof VAT_CODES;

/** How the position is paid for (tag 1214): a prepayment for a flat or a car not yet handed over is full_prepayment. */
export const PAYMENT_METHOD_CODES = { full_prepayment: 1, prepayment: 2, advance: 3, full_payment: 4 } as const;
export type PaymentMethod = keyof typeof PAYMENT_METHOD_CODES;

/** What the position is (tag 1212). */
export const PAYMENT_OBJECT_CODES = { commodity: 1, work: 3, service: 4, payment: 10, another: 13 } as const;
export type PaymentObject = keyof typeof PAYMENT_OBJECT_CODES;

/** The merchant's tax system: name → the protocol's top-level `taxSystem`. */
export const TAX_SYSTEM_CODES = { osn: 0, usn_income: 1, usn_income_outcome: 2, envd: 3, esn: 4, patent: 5 } as const;
export type TaxSystem = keyof typeof TAX_SYSTEM_CODES;

/** The receipt format version: 1.05 names the unit of measure in words, 1.2 by a number. */
export const FFD_VERSIONS = ['1.05', '1.2'] as const;
export type FfdVersion = (typeof FFD_VERSIONS)[number];

/** Units of measure: name → its code (format 1.2) and its word (format 1.05). */
export const MEASURES = {
  piece: { code: 0, word: 'шт' },
  gram: { code: 10, word: 'г' },
  kilogram: { code: 11, word: 'кг' },
  meter: { code: 22, word: 'м' },
  square_meter: { code: 32, word: 'м2' },
  liter: { code: 41, word: 'л' },
  kwh: { code: 50, word: 'кВт·ч' },
  day: { code: 70, word: 'сут' },
  hour: { code: 71, word: 'ч' },
  other: { code: 255, word: 'иное' },
} as const;
export type Measure = keyof typeof MEASURES;

export const VAT_NAMES = Object.keys(VAT_CODES) as Vat[];
export const PAYMENT_METHOD_NAMES = Object.keys(PAYMENT_METHOD_CODES) as PaymentMethod[];
export const PAYMENT_OBJECT_NAMES = Object.keys(PAYMENT_OBJECT_CODES) as PaymentObject[];
export const MEASURE_NAMES = Object.keys(MEASURES) as Measure[];
export const TAX_SYSTEM_NAMES = Object.keys(TAX_SYSTEM_CODES) as TaxSystem[];

/** The names of a code table, for schemas and messages. */
export const namesOf = <T extends object>(table: T) => Object.keys(table) as (keyof T & string)[];

/** Whether `value` names an entry of the table. */
export const isNameIn = <T extends object>(table: T, value: unknown): value is keyof T & string =>
  typeof value === 'string' && Object.prototype.hasOwnProperty.call(table, value);

/** What a bill's positions fall back to (the configuration's FISCAL_DEFAULT_*): bills without positions, the fee. */
export interface FiscalDefaults {
  vat: Vat;
  paymentMethod: PaymentMethod;
  paymentObject: PaymentObject;
}

/** The merchant's fiscal settings; `taxSystem` null: no receipt goes with an order (the merchant issues its own). */
export interface FiscalSettings extends FiscalDefaults {
  taxSystem: TaxSystem | null;
  ffd: FfdVersion;
}
