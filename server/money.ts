/** Money is integer kopecks inside the server and roubles with two decimals on the wire (DESIGN §6). */
export const toRoubles = (kopecks: number): number => Math.round(kopecks) / 100;

/** Converts a wire amount in roubles to kopecks; refuses more than two decimals instead of rounding money away. */
export function toKopecks(roubles: number): number {
  const kopecks = Math.round(roubles * 100);
  if (Math.abs(kopecks - roubles * 100) > 1e-6) throw new RangeError('amount has more than two decimals');
  return kopecks;
}
