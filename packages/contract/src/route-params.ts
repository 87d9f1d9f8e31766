import { z } from 'zod';
import { adminUserIdSchema } from './admin';
import { entryIdSchema } from './entries';
import { importBatchIdSchema } from './entry-batches';
import { folderIdSchema } from './folders';
import { inviteIdSchema } from './invites';
import { sessionIdSchema } from './sessions';

/**
 * The path parameters of the routes that take an id, as the route table (routes/) and the
 * handlers parse them. Ids stay as sent: handlers lower-case them (ids are stored that way).
 */
export const entryIdParamsSchema = z.object({ id: entryIdSchema });
export const folderIdParamsSchema = z.object({ id: folderIdSchema });
export const sessionIdParamsSchema = z.object({ id: sessionIdSchema });
export const inviteIdParamsSchema = z.object({ id: inviteIdSchema });
export const importBatchParamsSchema = z.object({ batchId: importBatchIdSchema });
export const webauthnCredentialParamsSchema = z.object({ id: z.uuid('must be a security key id') });
/** Lower-cased here: the admin handlers look the account up by it as parsed. */
export const adminUserIdParamsSchema = z.object({ id: adminUserIdSchema.transform((value) => value.toLowerCase()) });
/**
 * Any text: a rotation id that names no rotation of the caller's is a 404 like an expired one,
 * and a delivery ticket that is not one answers 404 like an unknown one (no 400 that tells
 * a guessed ticket's shape from a wrong one).
 */
export const keyRotationParamsSchema = z.object({ id: z.string() });
export const mailDeliveryParamsSchema = z.object({ ticket: z.string() });
