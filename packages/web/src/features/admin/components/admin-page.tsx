import type { ReactNode } from 'react';
import { card } from '@/components/ui/styles';
import { useAdminState } from '../api/get-admin-session';
import { AdminDashboard } from './admin-dashboard';
import { AdminSignInForm } from './admin-sign-in-form';

/**
 * /admin, the operator's page. It exists only when the server has an ADMIN_TOKEN: otherwise
 * the admin API answers 404 and this shows `notFound`, the app's own "Page not found". No link
 * leads here; the operator types the address.
 */
export function AdminPage({ notFound }: { notFound: ReactNode }) {
  const state = useAdminState();
  if (state.isPending) return <p className="py-24 text-center text-lg text-slate-300">Loading...</p>;
  if (state.isError) {
    return (
      <div className="mx-auto max-w-xl px-4 py-24">
        <p role="alert" className={`${card} text-center text-slate-300`}>
          The server could not be reached. Reload the page to try again.
        </p>
      </div>
    );
  }
  if (state.data.kind === 'off') return <>{notFound}</>;
  if (state.data.kind === 'signed-out') return <AdminSignInForm />;
  return <AdminDashboard />;
}
