import jsQR from 'jsqr';

/** An image that gave no QR code text; `message` is one sentence for the person. */
export class QrImageError extends Error {
  override name = 'QrImageError';
}

export const NO_QR_CODE_MESSAGE = 'No QR code found in this image.';
export const UNREADABLE_IMAGE_MESSAGE = 'This image could not be read.';

/**
 * Photos are scaled down to this many pixels on their longer side before the search: a QR
 * code that fills a fair part of the picture keeps plenty of pixels per module, and jsQR's
 * time and memory grow with the pixel count (a 12-megapixel photo would take seconds).
 */
export const MAX_DECODE_SIDE = 2048;

/**
 * The text of the QR code in an RGBA pixel buffer (4 bytes per pixel, rows top to bottom),
 * or null when there is none. Light-on-dark codes (dark mode screenshots) are found too.
 */
export function decodeQrPixels(data: Uint8ClampedArray, width: number, height: number): string | null {
  if (width <= 0 || height <= 0 || data.length < width * height * 4) return null;
  return jsQR(data, width, height, { inversionAttempts: 'attemptBoth' })?.data ?? null;
}

/**
 * The text of the QR code in an image file (a screenshot or photo of an authenticator setup
 * page). The picture is decoded with createImageBitmap, not an <img>: the page's CSP allows
 * no blob: images, and a bitmap needs no URL. Formats the browser cannot decode into a
 * bitmap (SVG in most browsers) are "could not be read".
 *
 * Throws QrImageError: UNREADABLE_IMAGE_MESSAGE when the file is not an image the browser
 * decodes, NO_QR_CODE_MESSAGE when it is but holds no readable QR code.
 */
export async function decodeQrImage(file: Blob): Promise<string> {
  const pixels = await readPixels(file);
  const text = decodeQrPixels(pixels.data, pixels.width, pixels.height);
  if (text === null) throw new QrImageError(NO_QR_CODE_MESSAGE);
  return text;
}

async function readPixels(file: Blob): Promise<ImageData> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new QrImageError(UNREADABLE_IMAGE_MESSAGE);
  }
  try {
    const scale = Math.min(1, MAX_DECODE_SIDE / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const context = drawingContext(width, height);
    if (!context) throw new QrImageError(UNREADABLE_IMAGE_MESSAGE);
    // A transparent PNG's clear pixels read as black; a white ground keeps dark modules on light.
    context.fillStyle = '#fff';
    context.fillRect(0, 0, width, height);
    context.drawImage(bitmap, 0, 0, width, height);
    return context.getImageData(0, 0, width, height);
  } catch (error) {
    if (error instanceof QrImageError) throw error;
    throw new QrImageError(UNREADABLE_IMAGE_MESSAGE);
  } finally {
    bitmap.close();
  }
}

type DrawingContext = OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;

function drawingContext(width: number, height: number): DrawingContext | null {
  // willReadFrequently keeps the canvas in memory the CPU reads, as getImageData wants.
  if (typeof OffscreenCanvas === 'function') {
    return new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true });
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas.getContext('2d', { willReadFrequently: true });
}
