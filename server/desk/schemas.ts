/** The desk API's own JSON schemas (a new bill and a refund take the merchant API's: one validation for both doors). */
import { OBJECT_OID_PATTERN } from '../platform/patterns';
import { orderIdSchema } from '../platform/schemas';
import { ROLES } from '../../src/desk/services/rules/permissions';
import { BILL_STATUSES } from './views';

export const signInBody = {
  type: 'object',
  required: ['email', 'password'],
  additionalProperties: false,
  properties: { email: { type: 'string', minLength: 1, maxLength: 254 }, password: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

export const passwordBody = {
  type: 'object',
  required: ['current', 'password'],
  additionalProperties: false,
  properties: { current: { type: 'string', minLength: 1, maxLength: 200 }, password: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

export const emptyBody = { type: 'object', additionalProperties: false, maxProperties: 0 } as const;

export const billsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    q: { type: 'string', maxLength: 200 },
    /** Statuses separated by commas (`unpaid,expired`); none: every status. */
    status: { type: 'string', pattern: `^((${BILL_STATUSES.join('|')}),)*(${BILL_STATUSES.join('|')})?$` },
    page: { type: 'string', pattern: '^[1-9][0-9]{0,5}$' },
  },
} as const;

export const billParams = { type: 'object', required: ['objectOID'], properties: { objectOID: { type: 'string', pattern: OBJECT_OID_PATTERN } } } as const;
export const orderParams = { type: 'object', required: ['orderId'], properties: { orderId: orderIdSchema } } as const;

export const sendLinkBody = {
  type: 'object',
  required: ['channel'],
  additionalProperties: false,
  properties: { channel: { type: 'string', enum: ['sms', 'email'] }, to: { type: ['string', 'null'], maxLength: 254 } },
} as const;

const day = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' } as const;
export const exportQuery = { type: 'object', required: ['from', 'to'], additionalProperties: false, properties: { from: day, to: day } } as const;

const offerDocument = {
  type: 'object',
  required: ['title', 'text'],
  additionalProperties: false,
  properties: { title: { type: 'string', maxLength: 1000 }, text: { type: 'string', maxLength: 50_000 } },
} as const;

export const settingsBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    name: { type: 'string', maxLength: 1000 },
    supportPhone: { type: 'string', maxLength: 1000 },
    supportEmail: { type: 'string', maxLength: 1000 },
    webhookUrl: { type: ['string', 'null'], maxLength: 5000 },
    offers: { type: 'object', additionalProperties: false, properties: { aggregator: offerDocument, executer: offerDocument } },
  },
} as const;

/** The logo as base64 of its bytes (at most 200 KB of picture), or null to remove it. */
export const logoBody = {
  type: 'object',
  required: ['image'],
  additionalProperties: false,
  properties: { image: { type: ['string', 'null'], maxLength: 300_000, pattern: '^[A-Za-z0-9+/]*={0,2}$' } },
} as const;

export const staffParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,12}$' } } } as const;

export const newStaffBody = {
  type: 'object',
  required: ['email', 'role'],
  additionalProperties: false,
  properties: { email: { type: 'string', maxLength: 254 }, name: { type: 'string', maxLength: 200 }, role: { type: 'string', enum: ROLES } },
} as const;

export const staffChangeBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { role: { type: 'string', enum: ROLES }, disabled: { type: 'boolean' } },
} as const;

export const pageQuery = { type: 'object', additionalProperties: false, properties: { page: { type: 'string', pattern: '^[1-9][0-9]{0,5}$' } } } as const;
