import { argon2id } from 'hash-wasm';
import { z } from 'zod';
import { ImportFileError, ImportPasswordError } from '../import-format';

/**
 * Bitwarden's password-protected JSON export: `{encrypted: true, passwordProtected: true, salt,
 * kdfType, kdfIterations, kdfMemory?, kdfParallelism?, encKeyValidation_DO_NOT_EDIT, data}`.
 * The key is Bitwarden's deriveVaultExportKey: PBKDF2-SHA256(password, UTF-8 salt) or
 * Argon2id(password, SHA-256(UTF-8 salt), memory MiB), 32 bytes, stretched with HKDF-Expand
 * SHA-256 into an AES key ("enc") and an HMAC key ("mac"). `data` and the validation string
 * are EncStrings of type 2: "2.iv|ciphertext|mac", base64, AES-256-CBC, MAC = HMAC-SHA256 over
 * iv || ciphertext.
 */
export const bitwardenProtectedSchema = z.object({
  encrypted: z.literal(true),
  passwordProtected: z.literal(true),
  salt: z.string().min(1).max(1000),
  kdfType: z.union([z.literal(0), z.literal(1)]),
  kdfIterations: z.number().int(),
  kdfMemory: z.number().int().nullish(),
  kdfParallelism: z.number().int().nullish(),
  encKeyValidation_DO_NOT_EDIT: z.string().min(1),
  data: z.string().min(1),
});
export type BitwardenProtectedEnvelope = z.infer<typeof bitwardenProtectedSchema>;

/**
 * The KDF settings Lockit runs for a file: Bitwarden's own ranges (its settings page and
 * password-protected importer), so every file Bitwarden writes opens and no file can ask for
 * more. The ceilings are what keeps a hostile file from freezing the tab: 2,000,000 PBKDF2
 * rounds take about 1 s with WebCrypto; Argon2id at 1 GiB x 10 passes is the worst case
 * Bitwarden itself allows (a device without that memory fails with a message, not a hang).
 */
export const BITWARDEN_KDF_LIMITS = {
  pbkdf2Iterations: { min: 5_000, max: 2_000_000 },
  argon2Iterations: { min: 2, max: 10 },
  argon2MemoryMiB: { min: 16, max: 1024 },
  argon2Parallelism: { min: 1, max: 16 },
} as const;

function within(value: number | null | undefined, range: { min: number; max: number }): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max;
}

/** Refuses settings outside BITWARDEN_KDF_LIMITS before any work is done. */
export function checkBitwardenKdf(envelope: BitwardenProtectedEnvelope): void {
  const limits = BITWARDEN_KDF_LIMITS;
  const ok =
    envelope.kdfType === 0
      ? within(envelope.kdfIterations, limits.pbkdf2Iterations)
      : within(envelope.kdfIterations, limits.argon2Iterations) &&
        within(envelope.kdfMemory, limits.argon2MemoryMiB) &&
        within(envelope.kdfParallelism, limits.argon2Parallelism);
  if (!ok) {
    throw new ImportFileError(
      'This Bitwarden export asks for key-derivation settings outside the range Bitwarden itself uses, so it was not opened (a file like this could freeze the page).',
    );
  }
}

const utf8 = new TextEncoder();
const subtle = (): SubtleCrypto => globalThis.crypto.subtle;

async function hmacSha256(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const hmacKey = await subtle().importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await subtle().sign('HMAC', hmacKey, data as BufferSource));
}

/** HKDF-Expand (RFC 5869) for one 32-byte block: HMAC(prk, info || 0x01). */
function hkdfExpand32(prk: Uint8Array, info: string): Promise<Uint8Array> {
  const infoBytes = utf8.encode(info);
  const input = new Uint8Array(infoBytes.length + 1);
  input.set(infoBytes);
  input[infoBytes.length] = 1;
  return hmacSha256(prk, input);
}

async function deriveKdfKey(envelope: BitwardenProtectedEnvelope, password: string): Promise<Uint8Array> {
  const passwordBytes = utf8.encode(password);
  if (envelope.kdfType === 0) {
    const base = await subtle().importKey('raw', passwordBytes as BufferSource, 'PBKDF2', false, ['deriveBits']);
    const bits = await subtle().deriveBits(
      { name: 'PBKDF2', hash: 'SHA-256', salt: utf8.encode(envelope.salt) as BufferSource, iterations: envelope.kdfIterations },
      base,
      256,
    );
    return new Uint8Array(bits);
  }
  // Bitwarden hashes the salt for Argon2id, so any salt string gives Argon2 a 32-byte salt.
  const salt = new Uint8Array(await subtle().digest('SHA-256', utf8.encode(envelope.salt) as BufferSource));
  return argon2id({
    password: passwordBytes,
    salt,
    iterations: envelope.kdfIterations,
    parallelism: envelope.kdfParallelism ?? 1,
    memorySize: (envelope.kdfMemory ?? 0) * 1024,
    hashLength: 32,
    outputType: 'binary',
  });
}

interface StretchedKey {
  encKey: Uint8Array;
  macKey: Uint8Array;
}

interface EncString {
  iv: Uint8Array;
  ciphertext: Uint8Array;
  mac: Uint8Array;
}

function base64Bytes(text: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new Error('not base64');
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Parses "2.iv|ciphertext|mac"; any other EncString type is refused (only type 2 is written by exports). */
export function parseEncString(value: string, what: string): EncString {
  const match = /^2\.([^|]+)\|([^|]+)\|([^|]+)$/.exec(value.trim());
  try {
    if (!match) throw new Error('shape');
    const [iv, ciphertext, mac] = [base64Bytes(match[1]!), base64Bytes(match[2]!), base64Bytes(match[3]!)];
    if (iv.length !== 16 || mac.length !== 32 || ciphertext.length === 0 || ciphertext.length % 16 !== 0)
      throw new Error('sizes');
    return { iv, ciphertext, mac };
  } catch {
    throw new ImportFileError(`This Bitwarden export is damaged: its "${what}" is not a Bitwarden encrypted value.`);
  }
}

/** Decrypts an EncString; null when its MAC does not match (wrong key or changed bytes). */
async function decryptEncString(enc: EncString, key: StretchedKey): Promise<Uint8Array | null> {
  const macInput = new Uint8Array(enc.iv.length + enc.ciphertext.length);
  macInput.set(enc.iv);
  macInput.set(enc.ciphertext, enc.iv.length);
  const macKey = await subtle().importKey('raw', key.macKey as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ]);
  // verify compares in constant time; nothing is decrypted before the MAC holds.
  if (!(await subtle().verify('HMAC', macKey, enc.mac as BufferSource, macInput as BufferSource))) return null;
  const aesKey = await subtle().importKey('raw', key.encKey as BufferSource, 'AES-CBC', false, ['decrypt']);
  return new Uint8Array(
    await subtle().decrypt({ name: 'AES-CBC', iv: enc.iv as BufferSource }, aesKey, enc.ciphertext as BufferSource),
  );
}

/**
 * The plain JSON inside a password-protected export.
 *
 * Security invariants: the KDF settings pass checkBitwardenKdf before any derivation; a MAC
 * is checked before anything is decrypted; a wrong password is ImportPasswordError('wrong')
 * (the validation string's MAC fails), a changed file is ImportFileError.
 */
export async function openBitwardenProtected(
  envelope: BitwardenProtectedEnvelope,
  password: string | undefined,
): Promise<string> {
  checkBitwardenKdf(envelope);
  const validation = parseEncString(envelope.encKeyValidation_DO_NOT_EDIT, 'encKeyValidation_DO_NOT_EDIT');
  const data = parseEncString(envelope.data, 'data');
  if (password === undefined || password === '') throw new ImportPasswordError('missing');
  const kdfKey = await deriveKdfKey(envelope, password);
  const key = { encKey: await hkdfExpand32(kdfKey, 'enc'), macKey: await hkdfExpand32(kdfKey, 'mac') };
  kdfKey.fill(0);
  try {
    if ((await decryptEncString(validation, key)) === null) throw new ImportPasswordError('wrong');
    const plain = await decryptEncString(data, key);
    if (plain === null) throw new ImportFileError('This Bitwarden export is damaged: its data does not match its checksum.');
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(plain);
    } catch {
      throw new ImportFileError('This Bitwarden export is damaged: its data is not text.');
    }
  } finally {
    key.encKey.fill(0);
    key.macKey.fill(0);
  }
}
