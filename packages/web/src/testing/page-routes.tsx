import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { MainLayout } from '@/components/layout/main-layout';

/**
 * The production layout around eagerly imported pages. Tests on a fully fake clock use it:
 * a lazy chunk would need real time to load.
 */
export function pageRoutes(pages: Record<string, ReactNode>): RouteObject[] {
  return [{ element: <MainLayout />, children: Object.entries(pages).map(([path, element]) => ({ path, element })) }];
}
