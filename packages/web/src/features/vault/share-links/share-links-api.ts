import {
  apiPaths,
  listShareLinksResponseSchema,
  messageResponseSchema,
  openedShareResponseSchema,
  shareLinkResponseSchema,
  sharedLinkInfoResponseSchema,
  type CreateShareLinkRequest,
  type OpenedShare,
  type ShareLink,
  type SharedLinkInfo,
} from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** The owner's calls (decision 0078): the body carries only what the browser sealed. */
export async function createShareLink(body: CreateShareLinkRequest): Promise<ShareLink> {
  return (await apiRequest(apiPaths.shareLinks, { method: 'POST', body, schema: shareLinkResponseSchema, protectedCall: true }))
    .data;
}

export async function listShareLinks(): Promise<ShareLink[]> {
  return (await apiRequest(apiPaths.shareLinks, { method: 'GET', schema: listShareLinksResponseSchema, protectedCall: true }))
    .data;
}

export async function revokeShareLink(id: string): Promise<void> {
  await apiRequest(apiPaths.shareLink(id), { method: 'DELETE', schema: messageResponseSchema, protectedCall: true });
}

/** The recipient's calls: reading the state uses no opening; opening uses one. */
export async function sharedLinkInfo(id: string): Promise<SharedLinkInfo> {
  return (await apiRequest(apiPaths.shared(id), { method: 'GET', schema: sharedLinkInfoResponseSchema })).data;
}

export async function openSharedLink(id: string): Promise<OpenedShare> {
  return (await apiRequest(apiPaths.sharedOpen(id), { method: 'POST', schema: openedShareResponseSchema })).data;
}
