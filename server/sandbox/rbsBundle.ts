/**
 * The RBS fake's check of the fiscal receipt a register.do carries (`taxSystem`, `orderBundle`), as a real gateway
 * checks it before its cash-register service may print: every field there, every code known, the positions adding up
 * to the order's amount. A refusal names the position at fault, as the gateway's errorMessage does.
 */
import { TAX_SYSTEM_CODES, VAT_CODES } from '../billing/fiscalCodes';

/** errorCode 4: a required parameter is missing; 5: a parameter's value is wrong (the protocol's numbers). */
export interface BundleRefusal {
  errorCode: 4 | 5;
  errorMessage: string;
}

const known = (table: Record<string, number>) => new Set(Object.values(table));
const TAX_TYPES = known(VAT_CODES);
const TAX_SYSTEMS = known(TAX_SYSTEM_CODES);
// The gateway knows every code of the law's tables, not only those the product sends: payment method 1–7, object 1–26.
const inRange = (value: number, last: number) => Number.isInteger(value) && value >= 1 && value <= last;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isKopecks = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** What is wrong with one position, or null. */
function positionProblem(item: unknown, index: number, seen: Set<unknown>): string | null {
  if (!isObject(item)) return 'is not an object';
  if (item.positionId !== String(index + 1) && item.positionId !== index + 1) return `positionId must be ${index + 1}`;
  if (typeof item.name !== 'string' || item.name.trim() === '' || item.name.length > 100) return 'name must be 1 to 100 characters';
  const quantity = item.quantity;
  if (!isObject(quantity) || typeof quantity.value !== 'number' || !(quantity.value > 0)) return 'quantity.value must be above 0';
  if (Math.abs(Math.round(quantity.value * 1000) - quantity.value * 1000) > 1e-6) return 'quantity.value has more than 3 decimals';
  if (quantity.measure === undefined || quantity.measure === null || quantity.measure === '') return 'quantity.measure is missing';
  if (!isKopecks(item.itemAmount) || item.itemAmount === 0) return 'itemAmount must be a whole number of kopecks above 0';
  if (!isKopecks(item.itemPrice)) return 'itemPrice must be a whole number of kopecks';
  // The amount is price × quantity, to within rounding: half a kopeck per unit (a discounted price is rounded per unit).
  if (Math.abs(item.itemPrice * quantity.value - item.itemAmount) > Math.max(1, quantity.value) / 2 + 1e-9) {
    return `itemAmount ${item.itemAmount} is not itemPrice ${item.itemPrice} × quantity ${quantity.value}`;
  }
  if (typeof item.itemCode !== 'string' || item.itemCode === '') return 'itemCode is missing';
  if (seen.has(item.itemCode)) return `itemCode ${item.itemCode} is not unique in the order`;
  seen.add(item.itemCode);
  if (!isObject(item.tax) || !TAX_TYPES.has(item.tax.taxType as never)) return `tax.taxType ${JSON.stringify(isObject(item.tax) ? item.tax.taxType : undefined)} is unknown`;
  const attributes = isObject(item.itemAttributes) && Array.isArray(item.itemAttributes.attributes) ? (item.itemAttributes.attributes as unknown[]) : null;
  if (!attributes) return 'itemAttributes.attributes is missing';
  const attribute = (name: string) => Number((attributes.find((a) => isObject(a) && a.name === name) as Json | undefined)?.value);
  if (!inRange(attribute('paymentMethod'), 7)) return 'paymentMethod is missing or unknown';
  if (!inRange(attribute('paymentObject'), 26)) return 'paymentObject is missing or unknown';
  return null;
}

/** Null when the order may be registered with this receipt (or with none); else the refusal. */
export function bundleRefusal(taxSystem: string | undefined, orderBundle: string | undefined, amount: number): BundleRefusal | null {
  if (taxSystem === undefined && orderBundle === undefined) return null;
  if (orderBundle === undefined) return { errorCode: 4, errorMessage: 'orderBundle is missing: taxSystem needs the receipt' };
  if (taxSystem !== undefined && !TAX_SYSTEMS.has(Number(taxSystem) as never)) return { errorCode: 5, errorMessage: `taxSystem ${taxSystem} is unknown` };
  let bundle: unknown;
  try {
    bundle = JSON.parse(orderBundle);
  } catch {
    return { errorCode: 5, errorMessage: 'orderBundle is not JSON' };
  }
  if (!isObject(bundle)) return { errorCode: 5, errorMessage: 'orderBundle is not a JSON object' };
  const customer = bundle.customerDetails;
  if (!isObject(customer) || (!customer.email && !customer.phone)) return { errorCode: 4, errorMessage: 'orderBundle.customerDetails needs an email or a phone' };
  const items = isObject(bundle.cartItems) && Array.isArray(bundle.cartItems.items) ? (bundle.cartItems.items as unknown[]) : null;
  if (!items || items.length === 0) return { errorCode: 4, errorMessage: 'orderBundle.cartItems.items is missing or empty' };
  const seen = new Set<unknown>();
  for (const [index, item] of items.entries()) {
    const problem = positionProblem(item, index, seen);
    if (problem) return { errorCode: 5, errorMessage: `orderBundle position ${index + 1}: ${problem}` };
  }
  const total = items.reduce<number>((sum, item) => sum + ((item as Json).itemAmount as number), 0);
  if (total !== amount) return { errorCode: 5, errorMessage: `orderBundle positions add up to ${total}, not to amount ${amount}` };
  return null;
}

/**
 * The check of refund.do's `refundItems` for an order that carried a receipt: a JSON `{ items }` naming positions of the
 * order's bundle by positionId and itemCode, each above 0 and, with what earlier refunds returned, not above what the
 * position was charged, adding up to the refund's amount. Answers the refusal, or what each position has now returned.
 */
export function refundItemsCheck(
  orderBundle: string,
  refundItems: string | undefined,
  amount: number,
  returnedBefore: Record<string, number>,
): { refusal: BundleRefusal } | { returned: Record<string, number> } {
  if (refundItems === undefined) return { refusal: { errorCode: 4, errorMessage: 'refundItems is missing: the order carried a fiscal receipt' } };
  let parsed: unknown;
  try {
    parsed = JSON.parse(refundItems);
  } catch {
    return { refusal: { errorCode: 5, errorMessage: 'refundItems is not JSON' } };
  }
  const items = isObject(parsed) && Array.isArray(parsed.items) ? (parsed.items as unknown[]) : null;
  if (!items || items.length === 0) return { refusal: { errorCode: 4, errorMessage: 'refundItems.items is missing or empty' } };
  const charged = ((JSON.parse(orderBundle) as { cartItems: { items: Json[] } }).cartItems.items ?? []).filter(isObject);
  const returned = { ...returnedBefore };
  let total = 0;
  for (const [index, item] of items.entries()) {
    const at = `refundItems position ${index + 1}`;
    if (!isObject(item)) return { refusal: { errorCode: 5, errorMessage: `${at} is not an object` } };
    const position = charged.find((candidate) => String(candidate.positionId) === String(item.positionId));
    if (!position) return { refusal: { errorCode: 5, errorMessage: `${at}: positionId ${String(item.positionId)} is not in the order` } };
    if (item.itemCode !== position.itemCode) return { refusal: { errorCode: 5, errorMessage: `${at}: itemCode ${String(item.itemCode)} is not position ${String(position.positionId)}'s` } };
    if (!isKopecks(item.itemAmount) || item.itemAmount === 0) return { refusal: { errorCode: 5, errorMessage: `${at}: itemAmount must be a whole number of kopecks above 0` } };
    const key = String(position.positionId);
    returned[key] = (returned[key] ?? 0) + item.itemAmount;
    if (returned[key]! > (position.itemAmount as number)) {
      return { refusal: { errorCode: 5, errorMessage: `${at}: more of position ${key} returned (${returned[key]}) than it was charged (${String(position.itemAmount)})` } };
    }
    total += item.itemAmount;
  }
  if (total !== amount) return { refusal: { errorCode: 5, errorMessage: `refundItems add up to ${total}, not to amount ${amount}` } };
  return { returned };
}
