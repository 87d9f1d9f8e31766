import * as kdbxNamespace from 'kdbxweb';

const kdbxweb = (kdbxNamespace as unknown as { default?: typeof kdbxNamespace }).default ?? kdbxNamespace;

/** The password of both KDBX 2 fixtures. */
export const KDBX2_PASSWORD = 'correct horse battery staple';

/**
 * A KDBX 2.x database as KeePass 2.09 to 2.14 wrote one. No published KDBX 2 file has a known
 * password and no library still writes the version, so kdbxweb writes KDBX 3.1 and the two
 * things that set 3.1 apart from 2.x are undone:
 * - Meta/HeaderHash (the SHA-256 of the outer header, new in 3.01) is taken out of the XML
 *   before kdbxweb encrypts it, so the block hashes, the gzip stream and the encryption are all
 *   computed over the XML without it;
 * - the version field says 2.`minor`. Without HeaderHash nothing covers those bytes (the key
 *   comes from the password, key file, seeds and rounds only), so nothing else is recomputed.
 */
export async function writeKdbx2(
  credentials: kdbxNamespace.Credentials,
  minor: number,
  fill: (db: kdbxNamespace.Kdbx) => Promise<void> | void,
): Promise<Uint8Array> {
  const db = kdbxweb.Kdbx.create(credentials, 'Passwords');
  db.setVersion(3);
  // KeePass 2.x's default number of AES-KDF rounds.
  db.header.keyEncryptionRounds = 6000;
  await fill(db);
  const xmlUtils = kdbxweb.XmlUtils as { serialize: (doc: Document, pretty?: boolean) => string };
  const serialize = xmlUtils.serialize;
  xmlUtils.serialize = (doc, pretty) => {
    const found = doc.getElementsByTagName('HeaderHash');
    const nodes = Array.from({ length: found.length }, (_, index) => found.item(index));
    for (const node of nodes) node?.parentNode?.removeChild(node);
    return serialize(doc, pretty);
  };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await db.save());
  } finally {
    xmlUtils.serialize = serialize;
  }
  const view = new DataView(bytes.buffer);
  view.setUint16(8, minor, true);
  view.setUint16(10, 2, true);
  return bytes;
}

/**
 * KDBX 2.04 (KeePass 2.11 to 2.14), opened with the password: every kind of thing the import
 * maps, as KeePass of that time held it (no tags; TOTP as the KeeOtp plugin's `otp` string).
 */
export async function passwordDatabase(): Promise<Uint8Array> {
  const credentials = new kdbxweb.Credentials(kdbxweb.ProtectedValue.fromString(KDBX2_PASSWORD));
  return writeKdbx2(credentials, 4, async (db) => {
    const root = db.getDefaultGroup();
    const mail = db.createEntry(root);
    mail.fields.set('Title', 'Mail');
    mail.fields.set('UserName', 'ana@example.org');
    mail.fields.set('Password', kdbxweb.ProtectedValue.fromString('first'));
    mail.fields.set('URL', 'https://mail.example.org');
    mail.pushHistory();
    mail.fields.set('Password', kdbxweb.ProtectedValue.fromString('p,a"s\'s`\\ w|{}$'));
    mail.fields.set('Notes', 'line one\nline two');
    mail.fields.set('otp', 'key=JBSWY3DPEHPK3PXP&step=30&size=6');
    mail.fields.set('Recovery code', kdbxweb.ProtectedValue.fromString('R-123'));
    mail.fields.set('Account number', '0042');
    mail.binaries.set('key.txt', await db.createBinary(kdbxweb.ProtectedValue.fromString('attachment')));

    const bank = db.createEntry(db.createGroup(db.createGroup(root, 'Work'), 'Banking'));
    bank.fields.set('Title', 'Bank');
    bank.fields.set('UserName', '12345');
    bank.fields.set('Password', kdbxweb.ProtectedValue.fromString('bank'));
    bank.fields.set('URL', 'https://bank.example.org/login');
    bank.times.expires = true;
    bank.times.expiryTime = new Date('2027-03-31T12:00:00Z');

    const deleted = db.createEntry(root);
    deleted.fields.set('Title', 'Old account');
    db.remove(deleted);
  });
}

/** A KeePass XML key file of format 1.00, the one KeePass 2.09 to 2.14 made. */
export function keyFile(): Promise<Uint8Array> {
  return kdbxweb.Credentials.createRandomKeyFile(1);
}

/** KDBX 2.00 (KeePass 2.09 and 2.10), opened with the password and the key file together. */
export async function keyFileDatabase(key: Uint8Array): Promise<Uint8Array> {
  const credentials = new kdbxweb.Credentials(kdbxweb.ProtectedValue.fromString(KDBX2_PASSWORD), key);
  await credentials.ready;
  return writeKdbx2(credentials, 0, (db) => {
    const router = db.createEntry(db.createGroup(db.getDefaultGroup(), 'Home'));
    router.fields.set('Title', 'Router');
    router.fields.set('UserName', 'admin');
    router.fields.set('Password', kdbxweb.ProtectedValue.fromString('r0uter!'));
    router.fields.set('URL', 'http://192.168.1.1');
  });
}
