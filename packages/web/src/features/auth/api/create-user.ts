import { apiPaths, createUserResponseSchema, type CreateUserRequest, type CreateUserResponse } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';

/** POST /api/users/create: the spec's fields plus the key material; `password` is authKey. */
export async function createUser(body: CreateUserRequest): Promise<CreateUserResponse> {
  return apiRequest(apiPaths.createUser, { method: 'POST', body, schema: createUserResponseSchema });
}
