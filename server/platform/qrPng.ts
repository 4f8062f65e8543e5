/**
 * A QR code as a PNG: the symbol from the qrcode package, the image written here as one bit a pixel (black or white)
 * with zlib's native deflate. The package's own PNG writer (pngjs) spends about ten times as long on the same image,
 * trying five filters on 32-bit pixels in JavaScript, for a bigger file; a Pay by the fast-payment system draws one.
 */
import zlib from 'node:zlib';
import type QRCode from 'qrcode';
// The symbol alone: the package's main module also loads its four renderers (pngjs among them), which the product does
// not use; loading it took about 40 ms of a server's start, the symbol maker alone about 17.
import { create as createSymbol } from 'qrcode/lib/core/qrcode';

export interface QrPngOptions {
  /**
   * The image's width and height in pixels: the symbol and its margin scaled to fit, as the qrcode package does (four
   * pixels a module when the width is too small for the symbol).
   */
  width: number;
  /** The light border around the symbol, in modules. */
  margin: number;
  errorCorrectionLevel?: QRCode.QRCodeErrorCorrectionLevel;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/** The qrcode package's default scale, in pixels a module, when the width asked for is too small for the symbol. */
const DEFAULT_SCALE = 4;

/**
 * The image's side in pixels, and for each pixel along it the module it shows (-1 in the margin): the qrcode package's
 * own geometry (its getScale, getImageWidth and qrToImageData), so the image is the one it would draw.
 */
function modulesAlong(width: number, size: number, margin: number): Int32Array {
  const scale = width >= size + margin * 2 ? width / (size + margin * 2) : DEFAULT_SCALE;
  const side = Math.floor((size + margin * 2) * scale);
  const scaledMargin = margin * scale;
  const along = new Int32Array(side).fill(-1);
  for (let pixel = 0; pixel < side; pixel += 1) {
    if (pixel >= scaledMargin && pixel < side - scaledMargin) along[pixel] = Math.floor((pixel - scaledMargin) / scale);
  }
  return along;
}

/** The PNG of `text` as a QR code: black modules on white, 1-bit grayscale. */
export function qrPng(text: string, options: QrPngOptions): Buffer {
  const { modules } = createSymbol(text, { errorCorrectionLevel: options.errorCorrectionLevel ?? 'M' });
  const along = modulesAlong(options.width, modules.size, options.margin);
  const width = along.length;
  const rowBytes = Math.ceil(width / 8);
  // Each row: its filter (0, none), then the pixels, eight to a byte, the first in the high bit; 1 is white.
  const raw = Buffer.alloc((rowBytes + 1) * width);
  for (let y = 0; y < width; y += 1) {
    const row = along[y]!;
    const start = y * (rowBytes + 1) + 1;
    for (let x = 0; x < width; x += 1) {
      const column = along[x]!;
      const dark = row >= 0 && column >= 0 && modules.get(row, column);
      if (!dark) raw[start + (x >> 3)] = raw[start + (x >> 3)]! | (0x80 >> (x & 7));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  // Bit depth 1, colour type 0 (grayscale), deflate, the standard filters, no interlace.
  header.set([1, 0, 0, 0, 0], 8);
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** The same PNG as a data: URL, for an <img> in a page. */
export const qrPngDataUrl = (text: string, options: QrPngOptions): string => `data:image/png;base64,${qrPng(text, options).toString('base64')}`;
