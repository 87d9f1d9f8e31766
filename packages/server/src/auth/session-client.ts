import type { FastifyRequest } from 'fastify';

/** What a session records of the device that opened or used it. */
export interface SessionClient {
  userAgent: string | undefined;
  /** The client address as Fastify derives it (request.ip: TRUST_PROXY decides which hop). */
  address: string | undefined;
}

const USER_AGENT_MAX = 300;
// An IPv6 address with a zone id is the longest a socket gives; anything longer is not one.
const ADDRESS_MAX = 64;

export function sessionClientOf(request: FastifyRequest): SessionClient {
  return { userAgent: request.headers['user-agent'], address: request.ip };
}

/** The values stored: capped, and null when the client sent none. */
export function storedClient(client: SessionClient): { userAgent: string | null; address: string | null } {
  return { userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) || null, address: storedAddress(client.address) };
}

export function storedAddress(address: string | undefined): string | null {
  return address?.slice(0, ADDRESS_MAX) || null;
}
