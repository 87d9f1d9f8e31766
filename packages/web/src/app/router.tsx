import { lazy } from 'react';
import type { RouteObject } from 'react-router';
import { MainLayout } from '@/components/layout/main-layout';
import { paths } from '@/config/paths';
import { HomePage } from '@/features/landing/components/home-page';

// Every page but Home is split into its own chunk: a first visit to /home loads only what
// it shows, and the crypto code (Argon2id) arrives with the sign-in and sign-up pages.
const SplashPage = lazy(() => import('@/features/landing/components/splash-page').then((m) => ({ default: m.SplashPage })));
const AboutPage = lazy(() => import('@/features/landing/components/about-page').then((m) => ({ default: m.AboutPage })));
const SignInPage = lazy(() => import('@/features/auth/components/sign-in-page').then((m) => ({ default: m.SignInPage })));
const SignUpPage = lazy(() => import('@/features/auth/components/sign-up-page').then((m) => ({ default: m.SignUpPage })));
const VaultPage = lazy(() => import('@/features/vault/components/vault-page').then((m) => ({ default: m.VaultPage })));
const ProfilePage = lazy(() => import('@/features/profile/components/profile-page').then((m) => ({ default: m.ProfilePage })));
const ExportPage = lazy(() => import('@/features/vault/export/export-page').then((m) => ({ default: m.ExportPage })));
const ImportPage = lazy(() => import('@/features/vault/import/components/import-page').then((m) => ({ default: m.ImportPage })));
const HealthPage = lazy(() => import('@/features/vault/health/health-page').then((m) => ({ default: m.HealthPage })));
const GeneratorPage = lazy(() => import('@/features/generator/generator-page').then((m) => ({ default: m.GeneratorPage })));
const AdminPage = lazy(() => import('@/features/admin/components/admin-page').then((m) => ({ default: m.AdminPage })));
const SharedPage = lazy(() => import('@/features/vault/share-links/shared-page').then((m) => ({ default: m.SharedPage })));
const NotFoundPage = lazy(() => import('./not-found-page').then((m) => ({ default: m.NotFoundPage })));

export const routes: RouteObject[] = [
  {
    element: <MainLayout />,
    children: [
      { path: paths.splash, element: <SplashPage /> },
      { path: paths.home, element: <HomePage /> },
      { path: paths.about, element: <AboutPage /> },
      { path: paths.signIn, element: <SignInPage /> },
      { path: paths.signUp, element: <SignUpPage /> },
      { path: paths.vault, element: <VaultPage /> },
      { path: paths.profile, element: <ProfilePage /> },
      { path: paths.import, element: <ImportPage /> },
      { path: paths.export, element: <ExportPage /> },
      { path: paths.health, element: <HealthPage /> },
      { path: paths.generator, element: <GeneratorPage /> },
      { path: paths.admin, element: <AdminPage notFound={<NotFoundPage />} /> },
      { path: paths.shared, element: <SharedPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
