import { apiPaths } from '../paths';
import { publicConfigResponseSchema } from '../public-config';
import { routes } from './route-entry';

/** This document's own path: Lockit's own, public. */
export const OPENAPI_PATH = '/api/openapi.json';

/**
 * The server's own routes: its settings for the browser, this document, and the probes and
 * metrics outside /api (public to the session guard; /metrics may want a bearer token).
 */
export const operationsRoutes = routes([
  {
    name: 'public-config',
    method: 'GET',
    path: apiPaths.publicConfig,
    access: 'public',
    summary: 'Settings the browser needs: the sign-up mode and the breach check.',
    responses: { 200: publicConfigResponseSchema },
  },
  {
    name: 'openapi',
    method: 'GET',
    path: OPENAPI_PATH,
    access: 'public',
    summary: 'This API as an OpenAPI 3.1 document, built from the route table.',
  },
  {
    name: 'healthz',
    method: 'GET',
    path: '/healthz',
    access: 'public',
    summary: 'Liveness: the process answers (no database call).',
  },
  {
    name: 'readyz',
    method: 'GET',
    path: '/readyz',
    access: 'public',
    summary: 'Readiness: 200 when the database, its migrations and Redis are fine, else 503 naming the failed checks.',
  },
  {
    name: 'metrics',
    method: 'GET',
    path: '/metrics',
    access: 'public',
    summary: 'Prometheus text; with METRICS_TOKEN it needs that token as a bearer token.',
  },
]);
