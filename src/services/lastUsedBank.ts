import type { DeviceStorage } from './environment';

/**
 * The bank this browser paid with last, so it leads the list on the next payment. It stays on this device:
 * nothing is sent to the server. Storage that is full or refused only means the list keeps its usual order.
 */
const KEY = 'checkout.sbp.lastUsedBank';
const BANK_ID = /^\d{12}$/;

export function lastUsedBankOf(storage: DeviceStorage | null): string | null {
  try {
    const id = storage?.getItem(KEY) ?? null;
    return id && BANK_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}

export function rememberLastUsedBank(storage: DeviceStorage | null, id: string): void {
  if (!BANK_ID.test(id)) return;
  try {
    storage?.setItem(KEY, id);
  } catch {
    // Full or refused: nothing to do, and nothing the payer needs to hear about.
  }
}
