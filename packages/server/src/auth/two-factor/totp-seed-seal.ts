import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const INFO = 'lockit-totp-seed-v1';

function sealKey(serverSecret: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), INFO, 32));
}

/**
 * Seals a TOTP seed for the database: AES-256-GCM under HKDF(server secret,
 * 'lockit-totp-seed-v1'), fresh 96-bit IV, the user id as associated data.
 *
 * Security invariant: a copy of the database alone does not give the seed (the key is in the
 * server secret, never in the database), and a sealed seed moved to another account's row
 * fails to open.
 */
export function sealTotpSeed(serverSecret: Buffer, userId: string, seedBase32: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(serverSecret), iv);
  cipher.setAAD(Buffer.from(`totp-seed|${userId}`, 'utf8'));
  const body = Buffer.concat([cipher.update(seedBase32, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `v1.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

/** The seed, or undefined when the sealed text is malformed, tampered or another account's. */
export function openTotpSeed(serverSecret: Buffer, userId: string, sealed: string): string | undefined {
  const parts = sealed.split('.');
  if (parts.length !== 3 || parts[0] !== 'v1') return undefined;
  const iv = Buffer.from(parts[1]!, 'base64url');
  const body = Buffer.from(parts[2]!, 'base64url');
  if (iv.length !== 12 || body.length <= 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(serverSecret), iv);
    decipher.setAAD(Buffer.from(`totp-seed|${userId}`, 'utf8'));
    decipher.setAuthTag(body.subarray(body.length - 16));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
