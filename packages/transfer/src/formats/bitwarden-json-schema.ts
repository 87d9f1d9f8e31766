import { z } from 'zod';

/**
 * The shape of Bitwarden's unencrypted JSON export as it is read: every value may be null or
 * missing (Bitwarden writes null for empty), unknown keys are ignored, types are checked.
 */
const text = z.string().max(1_048_576).nullish();

export const bitwardenFieldSchema = z.object({
  name: text,
  value: z.union([z.string(), z.number(), z.boolean()]).nullish(),
  type: z.number().int().nullish(),
  linkedId: z.number().int().nullish(),
});

export const bitwardenItemSchema = z.object({
  id: z.string().nullish(),
  organizationId: z.string().nullish(),
  folderId: z.string().nullish(),
  // Older exports write [null] for an item in no collection.
  collectionIds: z.array(z.string().nullable()).nullish(),
  type: z.number().int(),
  name: text,
  notes: text,
  favorite: z.boolean().nullish(),
  fields: z.array(bitwardenFieldSchema).nullish(),
  login: z
    .object({
      uris: z.array(z.object({ uri: text, match: z.number().nullish() })).nullish(),
      username: text,
      password: text,
      totp: text,
      fido2Credentials: z.array(z.unknown()).nullish(),
    })
    .nullish(),
  card: z.record(z.string(), z.string().nullish()).nullish(),
  identity: z.record(z.string(), z.string().nullish()).nullish(),
  sshKey: z.record(z.string(), z.string().nullish()).nullish(),
  passwordHistory: z.array(z.object({ password: text, lastUsedDate: text })).nullish(),
  revisionDate: text,
  creationDate: text,
  deletedDate: text,
});
export type BitwardenItemInput = z.infer<typeof bitwardenItemSchema>;

export const bitwardenPlainSchema = z.object({
  encrypted: z.literal(false).nullish(),
  folders: z.array(z.object({ id: z.string(), name: z.string() })).nullish(),
  collections: z.array(z.object({ id: z.string(), name: z.string() })).nullish(),
  items: z.array(z.unknown()),
});
