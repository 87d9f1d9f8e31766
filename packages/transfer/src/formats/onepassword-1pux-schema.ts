import { z } from 'zod';

/**
 * export.data of a .1pux, as 1Password 8 writes it (and Bitwarden's importer reads it). Loose
 * objects: 1Password adds keys between versions and an unknown key must not refuse the file;
 * the parts Lockit reads are typed, and a value of the wrong type refuses it with the path.
 */
const text = z.string().nullish();

/** A section field's value: one key naming its kind (concealed, totp, string, monthYear...). */
export const fieldValueSchema = z.record(z.string(), z.unknown());

export const sectionFieldSchema = z.looseObject({
  title: text,
  id: text,
  value: fieldValueSchema.nullish(),
});

export const itemSchema = z.looseObject({
  uuid: text,
  favIndex: z.number().nullish(),
  createdAt: z.number().nullish(),
  updatedAt: z.number().nullish(),
  trashed: z.boolean().nullish(),
  state: text,
  categoryUuid: text,
  details: z
    .looseObject({
      loginFields: z.array(z.looseObject({ value: text, name: text, fieldType: text, designation: text })).nullish(),
      notesPlain: text,
      sections: z.array(z.looseObject({ title: text, name: text, fields: z.array(sectionFieldSchema).nullish() })).nullish(),
      passwordHistory: z.array(z.looseObject({ value: text, time: z.number().nullish() })).nullish(),
      password: text,
      documentAttributes: z.looseObject({ fileName: text, documentId: text }).nullish(),
    })
    .nullish(),
  overview: z
    .looseObject({
      title: text,
      url: text,
      urls: z.array(z.looseObject({ label: text, url: text, href: text })).nullish(),
      tags: z.array(z.string()).nullish(),
    })
    .nullish(),
});
export type OnePuxItem = z.infer<typeof itemSchema>;
export type OnePuxField = z.infer<typeof sectionFieldSchema>;

export const exportDataSchema = z.looseObject({
  accounts: z.array(
    z.looseObject({
      attrs: z.looseObject({ name: text, accountName: text }).nullish(),
      vaults: z.array(z.looseObject({ attrs: z.looseObject({ name: text }).nullish(), items: z.array(itemSchema) })),
    }),
  ),
});
