import { sealedAttachmentSize } from '@lockit/crypto';
import type { AttachmentLimits } from '../config/app-config';
import { HttpError } from '../http/http-error';

/** Sizes as a person reads them: "100 MB", "1 GB", "512 KB" (binary units, like the settings). */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 || Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, '');
  return `${shown} ${units[unit]}`;
}

/**
 * Refuses (413 and a message a person can act on) a new file whose sealed size is past the
 * per-file limit, or that would take the account past its total. The per-file limit is on the
 * file's own size: the sealed size of a file of exactly the limit is allowed.
 */
export function checkAttachmentRoom(limits: AttachmentLimits, sealedSize: number, usedBytes: number): void {
  if (limits.maxFileBytes === 0) throw new HttpError(413, 'Attachments are turned off on this server.');
  if (sealedSize > sealedAttachmentSize(limits.maxFileBytes)) {
    throw new HttpError(413, `This file is larger than the limit of ${formatBytes(limits.maxFileBytes)} per file.`);
  }
  if (usedBytes + sealedSize > limits.maxAccountBytes) {
    const free = Math.max(0, limits.maxAccountBytes - usedBytes);
    throw new HttpError(
      413,
      `Your attachments are full: this file needs ${formatBytes(sealedSize)}, and ${formatBytes(free)} of your ${formatBytes(limits.maxAccountBytes)} are left. Delete files you no longer need.`,
    );
  }
}
