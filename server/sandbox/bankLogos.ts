import { initialsOf, tileOf } from '../../src/services/sbpBanks';
import type { Logo } from '../sbpBanks/list';

/**
 * The sandbox's stand-ins for the fast-payment banks' logos: NSPK's logo host is outside, and the sandbox needs no
 * network, so each bank of the list gets a logo made here (its initials, white on a colour of its own) rather than a
 * 404 and a wasted request. Made once per bank and kept; they exist only with the sandbox on.
 */

/** One strong colour per tile of the page's eight, so a bank's stand-in and its initials' tile belong together. */
const COLOURS = ['#1d3fa8', '#085d3a', '#b54708', '#851651', '#0b4a6f', '#3e1c96', '#912018', '#344054'];

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The stand-in of one bank: an SVG drawn by this server (never one from outside, which could carry script). */
export function standInLogoSvg(bank: { id: string; name: string }): string {
  const initials = initialsOf(bank.name);
  // Three letters are set smaller, so that they fit the tile as two do.
  const size = initials.length > 2 ? 24 : 30;
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80" viewBox="0 0 80 80">' +
    `<rect width="80" height="80" rx="16" fill="${COLOURS[tileOf(bank.id)]!}"/>` +
    `<text x="40" y="40" dy="0.35em" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="${size}" font-weight="700" fill="#fff">${escapeXml(initials)}</text>` +
    '</svg>'
  );
}

/** The stand-ins as the bank list serves them: made on first ask, then kept for the process's life. */
export function standInLogos(): (bank: { id: string; name: string }) => Logo {
  const made = new Map<string, Logo>();
  return (bank) => {
    let logo = made.get(bank.id);
    if (!logo) {
      logo = { type: 'image/svg+xml', bytes: Buffer.from(standInLogoSvg(bank), 'utf8') };
      made.set(bank.id, logo);
    }
    return logo;
  };
}
