export type { RouteAccess, RouteEntry, RouteMethod } from './route-entry';
export { findRoute, routeKey, routeTable, type RouteName, type RouteTableEntry } from './route-table';
export { OPENAPI_PATH } from './operations-routes';
export { buildOpenApiDocument, type OpenApiOptions } from './openapi';
