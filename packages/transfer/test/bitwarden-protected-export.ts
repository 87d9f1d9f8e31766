import { createCipheriv, createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { argon2id } from 'hash-wasm';

/**
 * Writes a Bitwarden password-protected export the way Bitwarden's clients do, with Node's
 * crypto (not the code under test): no real export with a known password is published, so the
 * tests build their own. PBKDF2 is Node's; Argon2id is hash-wasm (Node 20 has none of its own).
 */
export async function protectedExport(
  plainJson: string,
  password: string,
  kdf: { kdfType: 0; kdfIterations: number } | { kdfType: 1; kdfIterations: number; kdfMemory: number; kdfParallelism: number },
): Promise<string> {
  const salt = randomBytes(16).toString('base64');
  const key =
    kdf.kdfType === 0
      ? pbkdf2Sync(Buffer.from(password, 'utf8'), Buffer.from(salt, 'utf8'), kdf.kdfIterations, 32, 'sha256')
      : Buffer.from(
          await argon2id({
            password,
            salt: createHash('sha256').update(salt, 'utf8').digest(),
            iterations: kdf.kdfIterations,
            memorySize: kdf.kdfMemory * 1024,
            parallelism: kdf.kdfParallelism,
            hashLength: 32,
            outputType: 'binary',
          }),
        );
  // HKDF-Expand with one block: HMAC(prk, info || 0x01).
  const expand = (info: string) =>
    createHmac('sha256', key)
      .update(Buffer.concat([Buffer.from(info), Buffer.from([1])]))
      .digest();
  const encKey = expand('enc');
  const macKey = expand('mac');
  const encString = (plain: string) => {
    const iv = randomBytes(16);
    const cipher = createCipheriv('aes-256-cbc', encKey, iv);
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const mac = createHmac('sha256', macKey)
      .update(Buffer.concat([iv, ct]))
      .digest();
    return `2.${iv.toString('base64')}|${ct.toString('base64')}|${mac.toString('base64')}`;
  };
  return JSON.stringify({
    encrypted: true,
    passwordProtected: true,
    salt,
    ...kdf,
    encKeyValidation_DO_NOT_EDIT: encString(globalThis.crypto.randomUUID()),
    data: encString(plainJson),
  });
}
