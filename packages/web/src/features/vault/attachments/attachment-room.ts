import type { AttachmentUsage } from '@lockit/contract';
import { sealedAttachmentSize } from '@lockit/crypto';
import { formatSize } from './format-size';

/**
 * Why a file of `size` bytes does not fit the server's limits (as the last list answered
 * them), in a sentence naming it; null when it fits. Checked before a file is read or sealed,
 * so a file past a limit costs no upload; the server checks the same at create (413).
 */
export function attachmentRoomProblem(usage: AttachmentUsage, name: string, size: number): string | null {
  if (usage.maxFileBytes === 0) return `${name} was not attached: attachments are turned off on this server.`;
  if (size > usage.maxFileBytes) return `${name} is larger than the limit of ${formatSize(usage.maxFileBytes)} per file.`;
  if (usage.usedBytes + sealedAttachmentSize(size) > usage.maxAccountBytes) {
    const left = Math.max(0, usage.maxAccountBytes - usage.usedBytes);
    return `Your attachments are full: ${name} needs ${formatSize(size)}, and ${formatSize(left)} of your ${formatSize(usage.maxAccountBytes)} are left. Delete files you no longer need.`;
  }
  return null;
}
