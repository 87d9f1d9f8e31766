import { buttonSecondary } from '@/components/ui/styles';
import { useAdminSignOut } from '../api/admin-sign-out';
import { DiagnosticsPanel } from './diagnostics-panel';
import { InviteForm } from './invite-form';
import { UsersTable } from './users-table';

/** Signed in as the operator: accounts, invitations, diagnostics. */
export function AdminDashboard() {
  const signOut = useAdminSignOut();
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold text-white">Server administration</h1>
        <button type="button" className={buttonSecondary} onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          Sign out
        </button>
      </div>
      <UsersTable />
      <InviteForm />
      <DiagnosticsPanel />
    </div>
  );
}
