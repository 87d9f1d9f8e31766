import type { Db } from '../schema';
import { createAccountDocumentsRepository } from './account-documents-repository';
import { createEntriesRepository } from './entries-repository';
import { createEntryHistoryRepository } from './entry-history-repository';
import { createFoldersRepository } from './folders-repository';
import { createInvitesRepository } from './invites-repository';
import { createSessionsRepository } from './sessions-repository';
import { createUsersRepository } from './users-repository';
import { createVerificationCodesRepository } from './verification-codes-repository';
import { createVaultUsageRepository } from './vault-usage-repository';
import { createUserAdminRepository } from './user-admin-repository';
import { createWebauthnRepository } from './webauthn-repository';
import { createTwoFactorRepository } from './two-factor-repository';
import { createKeyRotationsRepository } from './key-rotations-repository';
import { createRotatedVaultRepository } from './rotated-vault-repository';
import { createVaultStateRepository } from './vault-state-repository';
import { createChangeLogRepository } from './change-log-repository';
import { createAttachmentsRepository } from './attachments-repository';
import { createShareLinksRepository } from './share-links-repository';

export function createRepositories(db: Db) {
  return {
    users: createUsersRepository(db),
    sessions: createSessionsRepository(db),
    codes: createVerificationCodesRepository(db),
    entries: createEntriesRepository(db),
    history: createEntryHistoryRepository(db),
    folders: createFoldersRepository(db),
    usage: createVaultUsageRepository(db),
    accountDocuments: createAccountDocumentsRepository(db),
    invites: createInvitesRepository(db),
    userAdmin: createUserAdminRepository(db),
    webauthn: createWebauthnRepository(db),
    twoFactor: createTwoFactorRepository(db),
    keyRotations: createKeyRotationsRepository(db),
    rotatedVault: createRotatedVaultRepository(db),
    vaultState: createVaultStateRepository(db),
    changes: createChangeLogRepository(db),
    attachments: createAttachmentsRepository(db),
    shareLinks: createShareLinksRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
