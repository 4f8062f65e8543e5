import zlib from 'node:zlib';
import QRCode from 'qrcode';
import { qrPng, qrPngDataUrl } from '../../../server/platform/qrPng';
// The qrcode package's own drawing of a symbol into RGBA pixels (what its PNG writer then encodes).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { qrToImageData, getImageWidth, getOptions } = require('qrcode/lib/renderer/utils') as {
  qrToImageData(data: Uint8Array, qr: QRCode.QRCode, options: unknown): void;
  getImageWidth(size: number, options: unknown): number;
  getOptions(options: object): unknown;
};

/** The PNG's header fields and its pixels, dark (true) or light, read back from the file. */
function readPng(png: Buffer) {
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  const chunks = new Map<string, Buffer>();
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    // Every chunk's CRC is over its type and data.
    expect(png.readUInt32BE(at + 8 + length)).toBe(zlib.crc32(png.subarray(at + 4, at + 8 + length)));
    chunks.set(type, data);
    at += 12 + length;
  }
  const header = chunks.get('IHDR')!;
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const raw = zlib.inflateSync(chunks.get('IDAT')!);
  const rowBytes = Math.ceil(width / 8);
  const dark: boolean[] = [];
  for (let y = 0; y < height; y += 1) {
    expect(raw[y * (rowBytes + 1)]).toBe(0);
    for (let x = 0; x < width; x += 1) dark.push(((raw[y * (rowBytes + 1) + 1 + (x >> 3)]! >> (7 - (x & 7))) & 1) === 0);
  }
  return { width, height, bitDepth: header[8], colourType: header[9], ends: chunks.has('IEND'), dark };
}

/** The qrcode package's drawing of the same text at the same size, dark (true) or light. */
function packageDrawing(text: string, options: { width: number; margin: number; errorCorrectionLevel?: QRCode.QRCodeErrorCorrectionLevel }) {
  const qr = QRCode.create(text, { errorCorrectionLevel: options.errorCorrectionLevel ?? 'M' });
  const opts = getOptions(options);
  const width = getImageWidth(qr.modules.size, opts);
  const rgba = new Uint8Array(width * width * 4);
  qrToImageData(rgba, qr, opts);
  return { width, dark: Array.from({ length: width * width }, (_, pixel) => rgba[pixel * 4] === 0) };
}

const PAYLOAD = 'https://qr.nspk.ru/AD10006M8KU3GGFO8OTQGJSB8DLS5R5O?type=02&bank=100000000111&sum=150000000&cur=RUB&crc=AB75';

test.each([
  ['a fast payment’s QR (256 px, margin 1)', PAYLOAD, { width: 256, margin: 1 }],
  ['a pay link’s QR in the desk (240 px, margin 1, level M)', 'https://pay.example.ru/l/3f9a1c0b7d2e4a6b8c9d0e1f', { width: 240, margin: 1, errorCorrectionLevel: 'M' as const }],
  ['a width that does not divide into modules (300 px, margin 4)', PAYLOAD, { width: 300, margin: 4 }],
  ['a width too small for the symbol: four pixels a module', 'short', { width: 10, margin: 1 }],
])('%s: a 1-bit grayscale PNG, pixel for pixel the qrcode package’s own drawing', (_name, text, options) => {
  const read = readPng(qrPng(text, options));
  const drawn = packageDrawing(text, options);
  expect({ width: read.width, height: read.height, bitDepth: read.bitDepth, colourType: read.colourType, ends: read.ends }).toEqual({
    width: drawn.width,
    height: drawn.width,
    bitDepth: 1,
    colourType: 0,
    ends: true,
  });
  expect(read.dark.filter(Boolean).length).toBeGreaterThan(0);
  expect(read.dark).toEqual(drawn.dark);
});

test('the data: URL carries the same PNG', () => {
  const url = qrPngDataUrl(PAYLOAD, { width: 256, margin: 1 });
  expect(url.startsWith('data:image/png;base64,')).toBe(true);
  expect(Buffer.from(url.slice('data:image/png;base64,'.length), 'base64').equals(qrPng(PAYLOAD, { width: 256, margin: 1 }))).toBe(true);
});
