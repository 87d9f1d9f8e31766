/**
 * Layout: `routes/<area>/<verb-noun>.ts` holds HTTP handlers only, one file per API operation,
 * its area named like the contract module it serves (`accounts`, `entries`, `folders`). Rules
 * and services that know no HTTP live in folders named for their concern, never for a route
 * area: `identity/` (name folding, codes, prelogin salt), `vault/` (the list cache, entry
 * writes with history, the trash purge), `auth/`, `security/`, `mail/`, `db/`, `http/`. A
 * vault entry is an "entry" throughout; only the spec's URLs say "passwords".
 */
import type { RoutePlugin } from '../app-context';
import { createUserRoute } from './accounts/create-user';
import { sendCodeRoute } from './accounts/send-code';
import { verifyCodeRoute } from './accounts/verify-code';
import { mailDeliveryRoute } from './accounts/mail-delivery';
import { preloginRoute } from './accounts/prelogin';
import { loginRoute } from './accounts/login';
import { refreshTokenRoute } from './accounts/refresh-token';
import { verifySessionRoute } from './accounts/verify-session';
import { profileRoute } from './accounts/profile';
import { keyMaterialRoute } from './accounts/key-material';
import { logoutRoute } from './accounts/logout';
import { updateUsernameRoute } from './accounts/update-username';
import { changePasswordRoute } from './accounts/change-password';
import { deleteAccountRoute } from './accounts/delete-account';
import { listEntriesRoute } from './entries/list-entries';
import { addEntryRoute } from './entries/add-entry';
import { updateEntryRoute } from './entries/update-entry';
import { deleteEntryRoute } from './entries/delete-entry';
import { restoreEntryRoute } from './entries/restore-entry';
import { purgeEntryRoute } from './entries/purge-entry';
import { listEntryHistoryRoute } from './entries/list-entry-history';
import { listEntryHistoriesRoute } from './entries/list-entry-histories';
import { addEntryBatchRoute } from './entries/add-entry-batch';
import { undoEntryBatchRoute } from './entries/undo-entry-batch';
import { listFoldersRoute } from './folders/list-folders';
import { addFolderRoute } from './folders/add-folder';
import { updateFolderRoute } from './folders/update-folder';
import { deleteFolderRoute } from './folders/delete-folder';
import { getVaultStateRoute } from './vault-state/get-vault-state';
import { putVaultStateRoute } from './vault-state/put-vault-state';
import { getVaultChangesRoute } from './vault-changes/get-vault-changes';
import { vaultEventsRoute } from './vault-changes/vault-events';
import { publicConfigRoute } from './meta/public-config';
import { openApiRoute } from './meta/openapi';
import { getAccountDocumentRoute } from './account-documents/get-account-document';
import { putAccountDocumentRoute } from './account-documents/put-account-document';
import { createInviteRoute } from './invites/create-invite';
import { listInvitesRoute } from './invites/list-invites';
import { revokeInviteRoute } from './invites/revoke-invite';
import { createShareLinkRoute } from './share-links/create-share-link';
import { listShareLinksRoute } from './share-links/list-share-links';
import { revokeShareLinkRoute } from './share-links/revoke-share-link';
import { relabelShareLinkRoute } from './share-links/relabel-share-link';
import { sharedLinkInfoRoute } from './share-links/shared-link-info';
import { openSharedLinkRoute } from './share-links/open-shared-link';
import { uploadShareFilePartRoute } from './share-links/upload-share-file-part';
import { finishShareFileRoute } from './share-links/finish-share-file';
import { downloadSharedFileRoute } from './share-links/download-shared-file';
import { listSessionsRoute } from './sessions/list-sessions';
import { endSessionRoute } from './sessions/end-session';
import { endOtherSessionsRoute } from './sessions/end-other-sessions';
import { loginSecondFactorRoute } from './two-factor/login-second-factor';
import { twoFactorStatusRoute } from './two-factor/two-factor-status';
import { totpSetupRoute } from './two-factor/totp-setup';
import { totpConfirmRoute } from './two-factor/totp-confirm';
import { totpDisableRoute } from './two-factor/totp-disable';
import { recoveryCodesRoute } from './two-factor/regenerate-recovery-codes';
import { forgetBrowsersRoute } from './two-factor/forget-browsers';
import { registerWebauthnOptionsRoute } from './webauthn/register-webauthn-options';
import { registerWebauthnRoute } from './webauthn/register-webauthn';
import { renameWebauthnRoute } from './webauthn/rename-webauthn';
import { setWebauthnUnlockKeyRoute } from './webauthn/set-webauthn-unlock-key';
import { removeWebauthnRoute } from './webauthn/remove-webauthn';
import { securityKeyOptionsRoute } from './webauthn/security-key-options';
import { securityKeySignInRoute } from './webauthn/security-key-sign-in';
import { passkeyOptionsRoute } from './webauthn/passkey-options';
import { passkeySignInRoute } from './webauthn/passkey-sign-in';
import { passkeyUnlockOptionsRoute } from './webauthn/passkey-unlock-options';
import { passkeyUnlockRoute } from './webauthn/passkey-unlock';
import { startKeyRotationRoute } from './key-rotation/start-key-rotation';
import { stageKeyRotationPartRoute } from './key-rotation/stage-key-rotation-part';
import { commitKeyRotationRoute } from './key-rotation/commit-key-rotation';
import { listAccountAttachmentsRoute } from './attachments/list-account-attachments';
import { listAttachmentsRoute } from './attachments/list-attachments';
import { createAttachmentRoute } from './attachments/create-attachment';
import { uploadAttachmentPartRoute } from './attachments/upload-attachment-part';
import { finishAttachmentRoute } from './attachments/finish-attachment';
import { downloadAttachmentRoute } from './attachments/download-attachment';
import { renameAttachmentRoute } from './attachments/rename-attachment';
import { deleteAttachmentRoute } from './attachments/delete-attachment';

import { adminSignInRoute } from './admin/admin-sign-in';
import { adminSignOutRoute } from './admin/admin-sign-out';
import { getAdminSessionRoute } from './admin/get-admin-session';
import { listUsersRoute } from './admin/list-users';
import { createAdminInviteRoute } from './admin/create-admin-invite';
import { disableUserRoute } from './admin/disable-user';
import { enableUserRoute } from './admin/enable-user';
import { deleteUserRoute } from './admin/delete-user';
import { endUserSessionsRoute } from './admin/end-user-sessions';
import { getDiagnosticsRoute } from './admin/get-diagnostics';

/** Registered only when ADMIN_TOKEN is set: otherwise every admin path is an unknown path (404). */
const adminRoutes: RoutePlugin[] = [
  adminSignInRoute,
  adminSignOutRoute,
  getAdminSessionRoute,
  listUsersRoute,
  createAdminInviteRoute,
  disableUserRoute,
  enableUserRoute,
  deleteUserRoute,
  endUserSessionsRoute,
  getDiagnosticsRoute,
];

const routes: RoutePlugin[] = [
  createUserRoute,
  sendCodeRoute,
  mailDeliveryRoute,
  verifyCodeRoute,
  preloginRoute,
  loginRoute,
  refreshTokenRoute,
  verifySessionRoute,
  profileRoute,
  keyMaterialRoute,
  logoutRoute,
  updateUsernameRoute,
  changePasswordRoute,
  deleteAccountRoute,
  listEntriesRoute,
  addEntryRoute,
  updateEntryRoute,
  deleteEntryRoute,
  restoreEntryRoute,
  purgeEntryRoute,
  listEntryHistoryRoute,
  listEntryHistoriesRoute,
  addEntryBatchRoute,
  undoEntryBatchRoute,
  listFoldersRoute,
  addFolderRoute,
  updateFolderRoute,
  deleteFolderRoute,
  getVaultStateRoute,
  putVaultStateRoute,
  getVaultChangesRoute,
  vaultEventsRoute,
  publicConfigRoute,
  openApiRoute,
  getAccountDocumentRoute,
  putAccountDocumentRoute,
  createInviteRoute,
  listInvitesRoute,
  revokeInviteRoute,
  listShareLinksRoute,
  createShareLinkRoute,
  revokeShareLinkRoute,
  relabelShareLinkRoute,
  sharedLinkInfoRoute,
  openSharedLinkRoute,
  uploadShareFilePartRoute,
  finishShareFileRoute,
  downloadSharedFileRoute,
  listSessionsRoute,
  endSessionRoute,
  endOtherSessionsRoute,
  loginSecondFactorRoute,
  twoFactorStatusRoute,
  totpSetupRoute,
  totpConfirmRoute,
  totpDisableRoute,
  recoveryCodesRoute,
  forgetBrowsersRoute,
  registerWebauthnOptionsRoute,
  registerWebauthnRoute,
  renameWebauthnRoute,
  setWebauthnUnlockKeyRoute,
  removeWebauthnRoute,
  securityKeyOptionsRoute,
  securityKeySignInRoute,
  passkeyOptionsRoute,
  passkeySignInRoute,
  passkeyUnlockOptionsRoute,
  passkeyUnlockRoute,
  startKeyRotationRoute,
  stageKeyRotationPartRoute,
  commitKeyRotationRoute,
  listAccountAttachmentsRoute,
  listAttachmentsRoute,
  createAttachmentRoute,
  uploadAttachmentPartRoute,
  finishAttachmentRoute,
  downloadAttachmentRoute,
  renameAttachmentRoute,
  deleteAttachmentRoute,
];

/** Every API route. Each is private unless its own options say `public: true`. */
export const registerRoutes: RoutePlugin = async (app, options) => {
  for (const route of routes) await app.register(route, options);
  if (options.ctx.admin) for (const route of adminRoutes) await app.register(route, options);
};
