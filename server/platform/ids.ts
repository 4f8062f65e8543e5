/** Ids that sort by when they were made. */
import crypto from 'node:crypto';

let sequence = 0;

/**
 * `<prefix>_`, the time and a counter of this process in hex, then randomness (so ids of several processes never
 * collide): ids made in one millisecond still sort in the order made.
 */
export function sortableId(prefix: string, t: number): string {
  sequence = (sequence + 1) % 0x10000;
  return `${prefix}_${t.toString(16).padStart(12, '0')}${sequence.toString(16).padStart(4, '0')}${crypto.randomBytes(8).toString('hex')}`;
}
