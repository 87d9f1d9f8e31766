import { formatBytes, type AdminUser } from '@lockit/contract';
import { card } from '@/components/ui/styles';
import { useSignInAgainOn401 } from '../api/get-admin-session';
import { useAdminUsers } from '../api/list-users';
import { failureText, formatWhen } from '../lib/format';
import { UserActions } from './user-actions';

const headCell = 'px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-400 uppercase';
// Below md each row is a card: cells stack, each with its own label.
const cell = 'flex justify-between gap-3 px-3 py-1 text-sm text-slate-200 md:table-cell md:py-3 md:whitespace-nowrap';
const label = 'text-slate-400 md:hidden';

/** Every account: who, since when, last seen, state, how much it stores, its second factors. Never what it stores. */
export function UsersTable() {
  const users = useAdminUsers();
  useSignInAgainOn401(users.error);
  return (
    <section aria-labelledby="users-title" className={card}>
      <h2 id="users-title" className="mb-4 text-xl font-semibold text-white">
        Users{users.isSuccess ? ` (${users.data.length})` : ''}
      </h2>
      {users.isPending && <p className="text-slate-300">Loading...</p>}
      {users.isError && (
        <p role="alert" className="text-red-400">
          {failureText(users.error)}
        </p>
      )}
      {users.isSuccess && users.data.length === 0 && <p className="text-slate-300">No accounts yet.</p>}
      {users.isSuccess && users.data.length > 0 && (
        <table className="block w-full md:table">
          <thead className="hidden md:table-header-group">
            <tr>
              <th className={headCell}>User</th>
              <th className={headCell}>Created</th>
              <th className={headCell}>Last seen</th>
              <th className={headCell}>State</th>
              <th className={headCell}>Items</th>
              <th className={headCell}>Size</th>
              <th className={headCell}>Two-factor</th>
              <th className={headCell}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="flex flex-col gap-3 md:table-row-group">
            {users.data.map((user) => (
              <UserRow key={user.id} user={user} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function UserRow({ user }: { user: AdminUser }) {
  return (
    <tr
      aria-label={user.username}
      className="block rounded-xl border border-slate-800 py-2 md:table-row md:rounded-none md:border-0 md:border-t"
    >
      <td className="block px-3 py-1 md:table-cell md:py-3">
        <span className="block font-semibold break-all text-white">{user.username}</span>
        <span className="block text-sm break-all text-slate-400">{user.email}</span>
      </td>
      <td className={cell}>
        <span className={label}>Created</span>
        {formatWhen(user.createdAt)}
      </td>
      <td className={cell}>
        <span className={label}>Last seen</span>
        {formatWhen(user.lastSeenAt)}
      </td>
      <td className={cell}>
        <span className={label}>State</span>
        <span className="flex flex-wrap gap-1">
          {user.disabled ? <Badge tone="red">Disabled</Badge> : <Badge tone="green">Active</Badge>}
          {!user.verified && <Badge tone="amber">Unverified</Badge>}
        </span>
      </td>
      <td className={cell}>
        <span className={label}>Items</span>
        {user.items}
      </td>
      <td className={cell}>
        <span className={label}>Size</span>
        {formatBytes(user.bytes)}
      </td>
      <td className={cell}>
        <span className={label}>Two-factor</span>
        {TWO_FACTOR_LABELS[user.twoFactor]}
      </td>
      <td className="block px-3 py-2 md:table-cell md:py-3">
        <UserActions user={user} />
      </td>
    </tr>
  );
}

/** What the operator reads of an account's second factors (never which keys, never a seed). */
const TWO_FACTOR_LABELS: Record<AdminUser['twoFactor'], string> = {
  none: 'None',
  totp: 'Authenticator app',
  webauthn: 'Security key',
  both: 'Authenticator app and security key',
};

const tones = {
  green: 'border-emerald-700 text-emerald-300',
  red: 'border-red-700 text-red-300',
  amber: 'border-amber-700 text-amber-300',
} as const;

function Badge({ tone, children }: { tone: keyof typeof tones; children: string }) {
  return <span className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${tones[tone]}`}>{children}</span>;
}
