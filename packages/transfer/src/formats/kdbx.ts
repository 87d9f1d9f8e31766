import { argon2d, argon2id } from 'hash-wasm';
import * as kdbxNamespace from 'kdbxweb';
import {
  ImportFileError,
  ImportPasswordError,
  type ImportFile,
  type ImportFormat,
  type ParseOptions,
  type ParseResult,
} from '../import-format';
import { installKdbxGuards } from './kdbx-guards';
import { installKdbx3DamageCheck } from './kdbx3-damage';
import { kdbxwebCopy } from './kdbx-version';
import { keepassItems, type KeePassEntry, type KeePassGroup } from './keepass-tree';

// kdbxweb is a webpack UMD bundle: Node's CommonJS lexer sees the wrong named exports, so the
// library is its default export there; a browser bundler gives the named ones. Both have `default`.
const kdbxweb = (kdbxNamespace as unknown as { default?: typeof kdbxNamespace }).default ?? kdbxNamespace;

/**
 * What a KDBX file may ask of the key derivation before Lockit runs it. A hostile file could
 * otherwise ask for 4 GiB of Argon2 memory or a billion AES rounds and freeze or crash the tab;
 * these are far past every default (KeePass: Argon2d 1 MiB x 2; KeePassXC: 64 MiB x ~10-40;
 * AES-KDF "one second" on a fast PC: ~10-30 million rounds). docs/decisions/0035.
 */
export const KDBX_LIMITS = {
  /** The .kdbx as picked (attachments inside make it larger than a text export). */
  fileBytes: 200 * 1024 * 1024,
  argon2MemoryBytes: 1024 * 1024 * 1024,
  /** Memory times passes: 8 GiB of Argon2 work, some seconds of WebAssembly. */
  argon2WorkBytes: 8 * 1024 * 1024 * 1024,
  argon2Parallelism: 64,
  aesRounds: 100_000_000,
} as const;

/** What the import page shows beside the password and key file boxes. */
export const KDBX_KEY_FILE_NOTE =
  'If the database also needs a key file, choose it too. A database that needs a hardware key (YubiKey) cannot be opened here: export it from KeePass or KeePassXC as XML and import that.';

/** A key file is read whole into memory; KeePass's own are under 1 KB, any file may be one. */
export const KDBX_KEY_FILE_MAX_BYTES = 10 * 1024 * 1024;

const KDBX_SIGNATURE = [0x03, 0xd9, 0xa2, 0x9a];
const KDBX2_TYPE = [0x67, 0xfb, 0x4b, 0xb5];
const KDB1_TYPE = [0x65, 0xfb, 0x4b, 0xb5];

let configured = false;

/**
 * Configures kdbxweb once per page (it keeps one Argon2 implementation and one XML parser for
 * the whole page): Argon2 from hash-wasm, the guards of kdbx-guards.ts, and the check that
 * tells a damaged KDBX 2/3 payload from a wrong key (kdbx3-damage.ts).
 *
 * kdbxweb leaves Argon2 to the host. hash-wasm computes Argon2d (KDBX 4's default) and Argon2id
 * (KeePassXC's option), version 0x13 only; the older 0x10 is refused rather than misderived.
 */
export function configureKdbxweb(): void {
  if (configured) return;
  configured = true;
  kdbxweb.CryptoEngine.setArgon2Impl(async (password, salt, memory, iterations, length, parallelism, type, version) => {
    if (version !== 0x13) {
      throw new ImportFileError(
        'The file uses Argon2 version 1.0, which Lockit cannot compute; save it again in KeePass 2.x or KeePassXC.',
      );
    }
    const compute = type === kdbxweb.CryptoEngine.Argon2TypeArgon2id ? argon2id : argon2d;
    const hash = await compute({
      password: new Uint8Array(password),
      salt: new Uint8Array(salt),
      memorySize: memory,
      iterations,
      parallelism,
      hashLength: length,
      outputType: 'binary',
    });
    return hash.slice().buffer;
  });
  installKdbxGuards();
  installKdbx3DamageCheck();
}

export const kdbxFormat: ImportFormat = {
  id: 'kdbx',
  label: 'KeePass / KeePassXC database (.kdbx)',
  detect(file) {
    if (!startsWith(file.bytes, KDBX_SIGNATURE, 0)) return 0;
    if (startsWith(file.bytes, KDBX2_TYPE, 4)) return 1;
    // A KeePass 1 .kdb: claimed so the person is told why it cannot be read.
    return startsWith(file.bytes, KDB1_TYPE, 4) ? 0.9 : 0;
  },
  parse: parseKdbx,
};

async function parseKdbx(file: ImportFile, options: ParseOptions): Promise<ParseResult> {
  const { bytes } = file;
  if (startsWith(bytes, KDBX_SIGNATURE, 0) && startsWith(bytes, KDB1_TYPE, 4)) {
    throw new ImportFileError(
      'This is a KeePass 1 database (.kdb), which Lockit cannot read: KeePass 1 has a format of its own, not KDBX. Import it into KeePassXC (Database > Import) or open it in KeePass 2, save it as .kdbx and import that.',
    );
  }
  if (!startsWith(bytes, KDBX_SIGNATURE, 0) || !startsWith(bytes, KDBX2_TYPE, 4)) {
    throw new ImportFileError('The file is not a KeePass database (.kdbx): its first bytes are not the KDBX signature.');
  }
  if (bytes.length > KDBX_LIMITS.fileBytes) {
    throw new ImportFileError(
      `The file is larger than ${KDBX_LIMITS.fileBytes / 1024 / 1024} MB; Lockit does not read a KeePass database that large.`,
    );
  }
  const data = kdbxwebCopy(bytes);
  const header = readHeader(data);
  checkKdfCost(header);
  checkInnerStream(header);
  const { keyFile } = options;
  if (options.password === undefined && keyFile === undefined) throw new ImportPasswordError('missing');
  if (keyFile !== undefined && keyFile.length > KDBX_KEY_FILE_MAX_BYTES) {
    throw new ImportFileError(
      `The key file is larger than ${KDBX_KEY_FILE_MAX_BYTES / 1024 / 1024} MB; that is not a KeePass key file. Choose the key file of this database.`,
    );
  }
  configureKdbxweb();
  options.onProgress?.(0);

  let db: kdbxNamespace.Kdbx;
  try {
    // A database may need a password, a key file, or both; an empty password box means none.
    const password =
      options.password === undefined || options.password === '' ? null : kdbxweb.ProtectedValue.fromString(options.password);
    const credentials = new kdbxweb.Credentials(password);
    if (keyFile !== undefined) await credentials.setKeyFile(keyFile.slice());
    db = await kdbxweb.Kdbx.load(data, credentials);
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    if (error instanceof kdbxweb.KdbxError && error.code === kdbxweb.Consts.ErrorCodes.InvalidKey)
      // KDBX cannot tell a wrong password from a missing key file: both give another key.
      throw new ImportPasswordError(
        'wrong',
        keyFile === undefined
          ? 'That password does not open this database. If the database also needs a key file, choose the key file too and try again.'
          : 'That password and key file do not open this database. Check both: the key file must be the one chosen when the database was made.',
      );
    const detail = error instanceof kdbxweb.KdbxError ? error.message : String(error);
    throw new ImportFileError(`The database cannot be read: it is damaged or cut short (${detail}).`);
  }
  const top = db.groups[0];
  if (!top) throw new ImportFileError('The database has no groups: there is nothing to import.');
  const recycleBin = db.meta.recycleBinEnabled !== false ? db.meta.recycleBinUuid : undefined;
  const result = keepassItems(groupOf(top, recycleBin && !recycleBin.empty ? recycleBin.id : ''));
  options.onProgress?.(1);
  return { format: 'kdbx', ...result };
}

/** The outer header: plain bytes, read before any key is derived or the password asked for. */
function readHeader(data: ArrayBuffer): kdbxNamespace.KdbxHeader {
  try {
    return kdbxweb.KdbxHeader.read(new kdbxweb.BinaryStream(data), new kdbxweb.KdbxContext({ kdbx: {} as kdbxNamespace.Kdbx }));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new ImportFileError(`The database's header cannot be read: the file is damaged or cut short (${detail}).`);
  }
}

/**
 * Refuses a KDF that would cost more than KDBX_LIMITS, so the cost is known before the
 * password is even asked for.
 */
function checkKdfCost(header: kdbxNamespace.KdbxHeader): void {
  const tooCostly = (what: string): ImportFileError =>
    new ImportFileError(
      `The database asks for ${what} to derive its key, more than Lockit allows (it could freeze the page). Lower the key derivation settings in KeePass or KeePassXC and export again.`,
    );
  const params = header.kdfParameters;
  if (!params) {
    // KDBX 3.1: AES-KDF, its rounds in the header.
    const rounds = header.keyEncryptionRounds ?? 0;
    if (rounds > KDBX_LIMITS.aesRounds) throw tooCostly(`${rounds.toLocaleString('en')} AES rounds`);
    return;
  }
  const kdf = params.get('$UUID');
  const kdfId = kdf instanceof ArrayBuffer ? kdbxweb.ByteUtils.bytesToBase64(kdf) : '';
  const number = (key: string): number => {
    const value = params.get(key);
    return value instanceof kdbxweb.Int64 ? value.value : typeof value === 'number' ? value : 0;
  };
  if (kdfId === kdbxweb.Consts.KdfId.Aes) {
    const rounds = number('R');
    if (rounds > KDBX_LIMITS.aesRounds) throw tooCostly(`${rounds.toLocaleString('en')} AES rounds`);
    return;
  }
  if (kdfId === kdbxweb.Consts.KdfId.Argon2d || kdfId === kdbxweb.Consts.KdfId.Argon2id) {
    const memory = number('M');
    const passes = number('I');
    const lanes = number('P');
    if (memory > KDBX_LIMITS.argon2MemoryBytes) throw tooCostly(`${Math.round(memory / 1024 / 1024)} MiB of Argon2 memory`);
    if (memory * passes > KDBX_LIMITS.argon2WorkBytes)
      throw tooCostly(`${passes} Argon2 passes over ${Math.round(memory / 1024 / 1024)} MiB`);
    if (lanes > KDBX_LIMITS.argon2Parallelism) throw tooCostly(`${lanes} Argon2 lanes`);
    return;
  }
  throw new ImportFileError(
    'The database uses a key derivation Lockit does not know; save it again in KeePass 2.x or KeePassXC.',
  );
}

/**
 * kdbxweb decrypts protected values (passwords, hidden fields) with Salsa20 or ChaCha20 only.
 * A KDBX 2 or 3 header may name KeePass's old ArcFour variant (inner stream 1), which KeePassXC
 * refuses too; KeePass 2 still reads it. Said before the key is derived, not as "damaged" after.
 */
function checkInnerStream(header: kdbxNamespace.KdbxHeader): void {
  if (header.versionMajor < 4 && header.crsAlgorithm === kdbxweb.Consts.CrsAlgorithm.ArcFourVariant) {
    throw new ImportFileError(
      "The database protects its hidden fields with KeePass's old ArcFour variant, which Lockit cannot decrypt. Open it in KeePass 2 and save it (that writes KDBX 4), or export it as KeePass XML, and import that file.",
    );
  }
}

function groupOf(group: kdbxNamespace.KdbxGroup, recycleBinId: string): KeePassGroup {
  return {
    name: group.name ?? 'Group',
    isRecycleBin: recycleBinId !== '' && group.uuid.id === recycleBinId,
    entries: group.entries.map(entryOf),
    groups: group.groups.map((child) => groupOf(child, recycleBinId)),
  };
}

function entryOf(entry: kdbxNamespace.KdbxEntry): KeePassEntry {
  return {
    strings: [...entry.fields].map(([key, field]) => ({
      key,
      value: typeof field === 'string' ? field : field.getText(),
      protected: typeof field !== 'string',
    })),
    tags: entry.tags,
    createdAt: entry.times.creationTime?.toISOString() ?? null,
    updatedAt: entry.times.lastModTime?.toISOString() ?? null,
    expiresAt: entry.times.expires === true ? (entry.times.expiryTime?.toISOString() ?? null) : null,
    history: entry.history.map((version) => {
      const password = version.fields.get('Password');
      return {
        password: password === undefined ? '' : typeof password === 'string' ? password : password.getText(),
        updatedAt: version.times.lastModTime?.toISOString() ?? null,
      };
    }),
    attachments: [...entry.binaries].map(([name, binary]) => ({ name, bytes: binaryBytes(binary) })),
  };
}

/**
 * An entry's binary as bytes: kdbxweb gives the pooled value with its hash once loaded (a
 * reference to a pool entry that does not exist stays a bare `{ ref }`), or a bare value; a
 * protected one (KeePass's "protect" flag) is decrypted from its in-memory stream. Null when
 * the entry names a binary the database does not hold.
 */
function binaryBytes(binary: kdbxNamespace.KdbxBinary | kdbxNamespace.KdbxBinaryWithHash): Uint8Array | null {
  const value = kdbxweb.KdbxBinaries.isKdbxBinaryWithHash(binary) ? binary.value : binary;
  if (value instanceof kdbxweb.ProtectedValue) return value.getBinary();
  return value ? new Uint8Array(value) : null;
}

function startsWith(bytes: Uint8Array, expected: number[], offset: number): boolean {
  return expected.every((byte, index) => bytes[offset + index] === byte);
}
