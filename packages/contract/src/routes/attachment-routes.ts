import {
  attachmentContentQuerySchema,
  attachmentEntryParamsSchema,
  attachmentParamsSchema,
  attachmentPartResponseSchema,
  attachmentResponseSchema,
  createAttachmentRequestSchema,
  listAccountAttachmentsResponseSchema,
  listAttachmentsResponseSchema,
  renameAttachmentRequestSchema,
} from '../attachments';
import { messageResponseSchema } from '../common';
import { routes } from './route-entry';

const base = '/api/attachments/:entryId';

/**
 * An entry's files (attachments): only sealed bytes travel. An upload is create, then parts
 * appended at their offset (a raw `application/octet-stream` body each, so this table has no
 * body schema for it), then finish; a download is one streamed body.
 */
export const attachmentRoutes = routes([
  {
    name: 'list-account-attachments',
    method: 'GET',
    path: '/api/attachments',
    access: 'session',
    summary: 'Every file of the account (sealed), uploads under way included: what a key rotation re-wraps.',
    responses: { 200: listAccountAttachmentsResponseSchema },
  },
  {
    name: 'list-attachments',
    method: 'GET',
    path: base,
    access: 'session',
    summary: "An entry's finished files (sealed) and the account's attachment usage and limits.",
    params: attachmentEntryParamsSchema,
    responses: { 200: listAttachmentsResponseSchema },
  },
  {
    name: 'create-attachment',
    method: 'POST',
    path: base,
    access: 'session',
    summary: 'Starts an upload: the wrapped file key, sealed metadata and the sealed size; 413 past a limit.',
    params: attachmentEntryParamsSchema,
    body: createAttachmentRequestSchema,
    responses: { 201: attachmentResponseSchema, 413: messageResponseSchema },
  },
  {
    name: 'upload-attachment-part',
    method: 'PUT',
    path: `${base}/:id/content`,
    access: 'session',
    summary: 'Appends sealed bytes at `?offset=N` (a raw body, at most 64 sealed chunks) to an upload under way.',
    params: attachmentParamsSchema,
    query: attachmentContentQuerySchema,
    responses: { 200: attachmentPartResponseSchema, 409: messageResponseSchema, 413: messageResponseSchema },
  },
  {
    name: 'finish-attachment',
    method: 'POST',
    path: `${base}/:id/finish`,
    access: 'session',
    summary: 'Ends an upload whose every announced byte arrived; the file is listed from then on.',
    params: attachmentParamsSchema,
    responses: { 200: attachmentResponseSchema, 409: messageResponseSchema },
  },
  {
    name: 'download-attachment',
    method: 'GET',
    path: `${base}/:id/content`,
    access: 'session',
    summary: "A finished file's sealed content, streamed as `application/octet-stream`.",
    params: attachmentParamsSchema,
  },
  {
    name: 'rename-attachment',
    method: 'PUT',
    path: `${base}/:id`,
    access: 'session',
    summary: 'Replaces the sealed metadata (a new name, sealed under the same file key).',
    params: attachmentParamsSchema,
    body: renameAttachmentRequestSchema,
    responses: { 200: attachmentResponseSchema },
  },
  {
    name: 'delete-attachment',
    method: 'DELETE',
    path: `${base}/:id`,
    access: 'session',
    summary: 'Deletes a file (finished or not) for good.',
    params: attachmentParamsSchema,
    responses: { 200: messageResponseSchema },
  },
]);
