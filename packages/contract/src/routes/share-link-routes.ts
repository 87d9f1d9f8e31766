import { messageResponseSchema } from '../common';
import {
  createShareLinkRequestSchema,
  listShareLinksResponseSchema,
  openedShareResponseSchema,
  relabelShareLinkRequestSchema,
  shareFileContentQuerySchema,
  shareFilePartResponseSchema,
  sharedFileRequestSchema,
  shareLinkResponseSchema,
  shareParamsSchema,
  sharedLinkInfoResponseSchema,
} from '../share-links';
import { routes } from './route-entry';

/**
 * Share links (decision 0078): the owner's create, list and revoke, and the recipient's two
 * public calls, reading the share's state (no opening used) and opening it (one used).
 */
export const shareLinkRoutes = routes([
  {
    name: 'list-share-links',
    method: 'GET',
    path: '/api/share-links',
    access: 'session',
    summary: "The caller's share links not yet expired, with the openings each has left.",
    responses: { 200: listShareLinksResponseSchema },
  },
  {
    name: 'create-share-link',
    method: 'POST',
    path: '/api/share-links',
    access: 'session',
    summary: 'Stores a share sealed in the browser (its key stays in the link); 403 when the operator turned share links off.',
    body: createShareLinkRequestSchema,
    responses: { 201: shareLinkResponseSchema, 403: messageResponseSchema, 409: messageResponseSchema },
  },
  {
    name: 'revoke-share-link',
    method: 'DELETE',
    path: '/api/share-links/:id',
    access: 'session',
    summary: "Deletes one of the caller's share links at once; it opens for nobody from then on.",
    params: shareParamsSchema,
    responses: { 200: messageResponseSchema },
  },
  {
    name: 'relabel-share-link',
    method: 'PUT',
    path: '/api/share-links/:id/label',
    access: 'session',
    summary:
      "Replaces the owner's sealed label of one of the caller's links (a key rotation seals it again); 404 for anyone else's.",
    params: shareParamsSchema,
    body: relabelShareLinkRequestSchema,
    responses: { 200: messageResponseSchema, 404: messageResponseSchema },
  },
  {
    name: 'upload-share-file-part',
    method: 'PUT',
    path: '/api/share-links/:id/content',
    access: 'session',
    summary:
      "Appends sealed bytes of a shared file at `?offset=N` (a raw body, at most 64 sealed chunks) to one of the caller's links.",
    params: shareParamsSchema,
    query: shareFileContentQuerySchema,
    responses: {
      200: shareFilePartResponseSchema,
      403: messageResponseSchema,
      404: messageResponseSchema,
      409: messageResponseSchema,
      413: messageResponseSchema,
    },
  },
  {
    name: 'finish-share-file',
    method: 'POST',
    path: '/api/share-links/:id/finish',
    access: 'session',
    summary: "Ends a shared file's upload once every announced byte arrived; the link opens from then on.",
    params: shareParamsSchema,
    responses: { 200: shareLinkResponseSchema, 404: messageResponseSchema, 409: messageResponseSchema },
  },
  {
    name: 'shared-link-info',
    method: 'GET',
    path: '/api/shared/:id',
    access: 'public',
    summary: "A share's state (available, expired, used up) and its password salt, using no opening.",
    params: shareParamsSchema,
    responses: { 200: sharedLinkInfoResponseSchema, 403: messageResponseSchema, 404: messageResponseSchema },
  },
  {
    name: 'open-shared-link',
    method: 'POST',
    path: '/api/shared/:id/open',
    access: 'public',
    summary: 'Uses one opening of a share, counted atomically, and answers its sealed content; 410 when expired or used up.',
    params: shareParamsSchema,
    responses: {
      200: openedShareResponseSchema,
      403: messageResponseSchema,
      404: messageResponseSchema,
      410: messageResponseSchema,
    },
  },
  {
    name: 'download-shared-file',
    method: 'POST',
    path: '/api/shared/:id/file',
    access: 'public',
    summary:
      "A shared file's sealed bytes, streamed, for the ticket its opening gave (no opening of its own); 403 without a valid ticket.",
    params: shareParamsSchema,
    body: sharedFileRequestSchema,
    responses: { 403: messageResponseSchema, 404: messageResponseSchema },
  },
]);
