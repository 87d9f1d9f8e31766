import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useProfileQuery } from '@/api/get-profile';
import { useLogout } from '@/api/logout';
import { buttonSecondary, card } from '@/components/ui/styles';
import { paths } from '@/config/paths';
import { useSignupMode } from '@/config/signup-mode';
import { AutoLockSetting } from './auto-lock-setting';
import { ChangePasswordForm } from './change-password-form';
import { ClipboardClearSetting } from './clipboard-clear-setting';
import { EncryptionKeySection } from '../key-rotation/components/encryption-key-section';
import { DeleteAccountSection } from './delete-account-section';
import { InviteSection } from './invite-section';
import { PasskeysSection } from './passkeys-section';
import { SessionsSection } from './sessions-section';
import { TwoFactorSection } from './two-factor-section';
import { UsernameEditor } from './username-editor';
import { VaultStateSection } from './vault-state-section';

/** Profile: needs a session; a failed profile fetch sends the visitor to /signin. */
export function ProfilePage() {
  const profile = useProfileQuery();
  const navigate = useNavigate();
  const logout = useLogout({ onSignedOut: () => navigate(paths.signIn) });
  const signupMode = useSignupMode();
  const [passwordChanged, setPasswordChanged] = useState(false);

  useEffect(() => {
    if (profile.isError) navigate(paths.signIn, { replace: true });
  }, [profile.isError, navigate]);

  if (!profile.isSuccess) return <p className="py-24 text-center text-lg text-slate-300">Loading...</p>;
  const { username, email, fullname } = profile.data;

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-12">
      <section className={`${card} flex flex-col items-center gap-3 text-center`}>
        <div
          role="img"
          aria-label={`Avatar of ${username}`}
          className="flex h-20 w-20 items-center justify-center rounded-full bg-gradient-to-br from-cyan-500 to-fuchsia-500 text-3xl font-bold text-white"
        >
          {username.charAt(0).toUpperCase()}
        </div>
        <UsernameEditor username={username} />
        {fullname && <p className="text-slate-300">{fullname}</p>}
        <p className="text-slate-400">{email}</p>
      </section>
      <ChangePasswordForm username={username} onChanged={() => setPasswordChanged(true)} />
      <EncryptionKeySection username={username} offer={passwordChanged} />
      <TwoFactorSection username={username} />
      <PasskeysSection username={username} />
      <SessionsSection />
      <VaultStateSection />
      <AutoLockSetting />
      <ClipboardClearSetting />
      {signupMode === 'invite' && <InviteSection />}
      <DeleteAccountSection />
      <div className="flex justify-center">
        <button type="button" className={buttonSecondary} onClick={() => logout.mutate()} disabled={logout.isPending}>
          Logout
        </button>
      </div>
    </div>
  );
}
