/** The merchant API's money, on its own so that every schema file can use it. */
import { MONEY_PATTERN } from '../platform/money';

export const moneySchema = {
  type: 'object',
  description: 'An amount of money: a decimal string with exactly two places, never a float.',
  required: ['value', 'currency'],
  additionalProperties: false,
  properties: {
    value: { type: 'string', pattern: MONEY_PATTERN, examples: ['12345.67'] },
    currency: { type: 'string', enum: ['RUB'] },
  },
} as const;
