import { writeFileSync } from 'node:fs';
import { keyFile, keyFileDatabase, passwordDatabase } from './kdbx2-fixtures';

/**
 * Writes the KDBX 2 fixtures into test/fixtures (`npm run -s make-kdbx2-fixtures -w
 * @lockit/transfer`). Seeds and key are random, so each run gives other bytes, the same content.
 */
const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url);
const key = await keyFile();
writeFileSync(fixture('kdbx2.kdbx'), await passwordDatabase());
writeFileSync(fixture('kdbx2-keyfile.key'), key);
writeFileSync(fixture('kdbx2-keyfile.kdbx'), await keyFileDatabase(key));
