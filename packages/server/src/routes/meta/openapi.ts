import { readFileSync } from 'node:fs';
import { buildOpenApiDocument, OPENAPI_PATH, routeTable } from '@lockit/contract/routes';
import type { RoutePlugin } from '../../app-context';
import { ACCESS_COOKIE } from '../../auth/session-cookies';
import { ADMIN_COOKIE } from '../admin/admin-http';
import { SERVER_PACKAGE_JSON } from '../../config/package-paths';

/**
 * GET /api/openapi.json (public): the API as an OpenAPI 3.1 document, built from the route
 * table the server validates against, so it describes what the server really accepts. The
 * admin API is in it whether or not ADMIN_TOKEN turned it on here. Built once, at the first call.
 */
export const openApiRoute: RoutePlugin = async (app) => {
  let document: unknown;
  app.get(OPENAPI_PATH, { config: { public: true } }, async () => {
    document ??= buildOpenApiDocument(routeTable, {
      title: 'Lockit',
      version: (JSON.parse(readFileSync(SERVER_PACKAGE_JSON, 'utf8')) as { version: string }).version,
      sessionCookie: ACCESS_COOKIE,
      adminCookie: ADMIN_COOKIE,
    });
    return document;
  });
};
