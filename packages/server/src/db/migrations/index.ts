import type { Migration } from 'kysely';
import * as initial from './0001-initial';
import * as vaultRevision from './0002-vault-revision';
import * as entryItems from './0003-entry-items';
import * as accountDocuments from './0004-account-documents';
import * as importBatches from './0005-import-batches';
import * as invites from './0006-invites';
import * as accountAdmin from './0007-account-admin';
import * as jobLeases from './0008-job-leases';
import * as sessionAddress from './0009-session-address';
import * as twoFactor from './0010-two-factor';
import * as entryIdsPerAccount from './0011-entry-ids-per-account';
import * as keyGeneration from './0012-key-generation';
import * as passkeySignIn from './0013-passkey-sign-in';
import * as vaultState from './0014-vault-state';
import * as keyRotation from './0015-key-rotation';
import * as keyEpoch from './0016-key-epoch';
import * as changeCursor from './0017-change-cursor';
import * as attachments from './0018-attachments';
import * as shareLinks from './0019-share-links';
import * as shareLinkLabels from './0020-share-link-labels';
import * as shareLinkFiles from './0021-share-link-files';

/** Every migration, in order. Add new ones at the end; never edit a released one. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-vault-revision': vaultRevision,
  '0003-entry-items': entryItems,
  '0004-account-documents': accountDocuments,
  '0005-import-batches': importBatches,
  '0006-invites': invites,
  '0007-account-admin': accountAdmin,
  '0008-job-leases': jobLeases,
  '0009-session-address': sessionAddress,
  '0010-two-factor': twoFactor,
  '0011-entry-ids-per-account': entryIdsPerAccount,
  '0012-key-generation': keyGeneration,
  '0013-passkey-sign-in': passkeySignIn,
  '0014-vault-state': vaultState,
  '0015-key-rotation': keyRotation,
  '0016-key-epoch': keyEpoch,
  '0017-change-cursor': changeCursor,
  '0018-attachments': attachments,
  '0019-share-links': shareLinks,
  '0020-share-link-labels': shareLinkLabels,
  '0021-share-link-files': shareLinkFiles,
};
