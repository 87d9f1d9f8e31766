import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  decodeQrImage,
  decodeQrPixels,
  MAX_DECODE_SIDE,
  NO_QR_CODE_MESSAGE,
  QrImageError,
  UNREADABLE_IMAGE_MESSAGE,
} from './qr-image';

const URI = 'otpauth://totp/Lockit:alice?secret=JBSWY3DPEHPK3PXP';

/**
 * The QR code of URI: version 3 (29 x 29 modules), error correction L, byte mode, mask 0,
 * made once by a small encoder written from ISO/IEC 18004 (its Reed-Solomon step checked
 * against the standard's worked example). '#' is a dark module.
 */
const QR_MODULES = [
  '#######.......#...##..#######',
  '#.....#..#.#...#.#.#..#.....#',
  '#.###.#.#.#.#.###..##.#.###.#',
  '#.###.#..#..###...#.#.#.###.#',
  '#.###.#..##......####.#.###.#',
  '#.....#...##...#####..#.....#',
  '#######.#.#.#.#.#.#.#.#######',
  '........#..#.#####.##........',
  '###.#####......#.#...##...#..',
  '...##....#.####.....#.#..#.##',
  '##.#####..#..#..#.#..###.####',
  '###..#.####..#######.#..#..#.',
  '##.#..###.#......#.####..#..#',
  '##..#.....#...#.##..#.#.....#',
  '##...####.....#..##...#.#####',
  '#.##.#.####..######..#.....#.',
  '.###.###...####.##.##.##.#.##',
  '.###...##..####.##..###.....#',
  '#.###.###...###.#....#.#..###',
  '.##....#.###.##..##...#.#...#',
  '#....##..#.......##.#####..#.',
  '........#.####..#.###...#####',
  '#######.##..#....#.##.#.#.###',
  '#.....#.##.#.#...##.#...##..#',
  '#.###.#.##.##...##..######..#',
  '#.###.#..#.####.###.#..####.#',
  '#.###.#.###...#..###..#.#...#',
  '#.....#.######.######.#.##.#.',
  '#######.#.#.#...##.##.##...##',
];

interface Pixels {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/** Renders modules as RGBA pixels, `scale` pixels a module, inside the standard 4-module quiet zone. */
function render(modules: readonly string[], { scale = 4, inverted = false } = {}): Pixels {
  const quiet = 4;
  const side = (modules.length + 2 * quiet) * scale;
  const data = new Uint8ClampedArray(side * side * 4);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const dark = modules[Math.floor(y / scale) - quiet]?.[Math.floor(x / scale) - quiet] === '#';
      const value = dark !== inverted ? 0 : 255;
      data.set([value, value, value, 255], (y * side + x) * 4);
    }
  }
  return { data, width: side, height: side };
}

/** Grey noise from a fixed seed: an image with no QR code in it. */
function noise(width: number, height: number): Pixels {
  const data = new Uint8ClampedArray(width * height * 4);
  let state = 12345;
  for (let i = 0; i < width * height; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const value = state >>> 24;
    data.set([value, value, value, 255], i * 4);
  }
  return { data, width, height };
}

describe('decodeQrPixels', () => {
  it('reads the text of a QR code', () => {
    const { data, width, height } = render(QR_MODULES);
    expect(decodeQrPixels(data, width, height)).toBe(URI);
  });

  it('reads a light-on-dark QR code, as in a dark-mode screenshot', () => {
    const { data, width, height } = render(QR_MODULES, { inverted: true });
    expect(decodeQrPixels(data, width, height)).toBe(URI);
  });

  it('gives null for an image without a QR code', () => {
    const { data, width, height } = noise(120, 90);
    expect(decodeQrPixels(data, width, height)).toBeNull();
    expect(decodeQrPixels(new Uint8ClampedArray(64 * 64 * 4).fill(255), 64, 64)).toBeNull();
  });

  it('gives null for a code too damaged to correct', () => {
    const damaged = QR_MODULES.map((row, r) =>
      r >= 9 && r <= 20 ? row.replace(/[#.]/g, (module) => (module === '#' ? '.' : '#')) : row,
    );
    const { data, width, height } = render(damaged);
    expect(decodeQrPixels(data, width, height)).toBeNull();
  });

  it('gives null for a buffer that does not hold width x height pixels', () => {
    const { data, width } = render(QR_MODULES);
    expect(decodeQrPixels(data, width, width + 1)).toBeNull();
    expect(decodeQrPixels(new Uint8ClampedArray(0), 0, 0)).toBeNull();
  });
});

/**
 * jsdom decodes no images and has no canvas, so decodeQrImage is tested here over stand-ins
 * for createImageBitmap and OffscreenCanvas that hand over fixed pixels; a real browser runs
 * the same code in the end-to-end suite.
 */
describe('decodeQrImage', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  function stubImage(image: { width: number; height: number; pixels: Pixels }) {
    const bitmap = { width: image.width, height: image.height, close: vi.fn() };
    const drawn: { width: number; height: number }[] = [];
    vi.stubGlobal(
      'createImageBitmap',
      vi.fn(async () => bitmap),
    );
    vi.stubGlobal(
      'OffscreenCanvas',
      class {
        constructor(
          readonly width: number,
          readonly height: number,
        ) {}
        getContext() {
          return {
            fillStyle: '',
            fillRect: () => {},
            drawImage: (_source: unknown, _x: number, _y: number, width: number, height: number) => drawn.push({ width, height }),
            getImageData: () => image.pixels,
          };
        }
      },
    );
    return { bitmap, drawn };
  }

  it('gives the text of the QR code in the image and frees the bitmap', async () => {
    const pixels = render(QR_MODULES);
    const { bitmap, drawn } = stubImage({ width: pixels.width, height: pixels.height, pixels });
    await expect(decodeQrImage(new Blob(['png']))).resolves.toBe(URI);
    expect(drawn).toEqual([{ width: pixels.width, height: pixels.height }]);
    expect(bitmap.close).toHaveBeenCalled();
  });

  it('scales a large photo down to the decoding size, keeping its shape', async () => {
    const pixels = render(QR_MODULES);
    const { drawn } = stubImage({ width: 4 * MAX_DECODE_SIDE, height: 2 * MAX_DECODE_SIDE, pixels });
    await decodeQrImage(new Blob(['jpeg']));
    expect(drawn).toEqual([{ width: MAX_DECODE_SIDE, height: MAX_DECODE_SIDE / 2 }]);
  });

  it('says no QR code was found in an image without one', async () => {
    const pixels = noise(120, 90);
    const { bitmap } = stubImage({ width: 120, height: 90, pixels });
    await expect(decodeQrImage(new Blob(['png']))).rejects.toThrow(new QrImageError(NO_QR_CODE_MESSAGE));
    expect(bitmap.close).toHaveBeenCalled();
  });

  it('says the image could not be read when the browser cannot decode it', async () => {
    vi.stubGlobal(
      'createImageBitmap',
      vi.fn(async () => {
        throw new DOMException('The source image could not be decoded.', 'InvalidStateError');
      }),
    );
    const error = await decodeQrImage(new Blob(['not an image'])).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(QrImageError);
    expect((error as QrImageError).message).toBe(UNREADABLE_IMAGE_MESSAGE);
  });
});
