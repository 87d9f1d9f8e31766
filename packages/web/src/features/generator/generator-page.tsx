import { Link } from 'react-router';
import { useSessionQuery } from '@/api/verify-session';
import { GeneratorPanel } from '@/components/generator/generator-panel';
import { useGeneratorHistory } from '@/components/generator/use-generator-history';
import {
  useAccountGeneratorSettings,
  useBrowserGeneratorSettings,
  type GeneratorSettingsState,
} from '@/components/generator/use-generator-settings';
import { buttonSecondary } from '@/components/ui/styles';
import { paths } from '@/config/paths';
import { DAMAGED_DOCUMENT_MESSAGE } from '@/lib/account-documents';
import { useUnlockedVault } from '@/lib/keyring-context';
import { GeneratorHistoryList } from './generator-history-list';

const smallButton = `${buttonSecondary} px-3 py-1.5 text-sm`;

/**
 * /generator, usable by anyone. Signed in with the vault unlocked in this tab, the settings
 * are the account's (encrypted, on every device) and every copied value joins the account's
 * generator history. Otherwise the settings stay in this browser and nothing is kept, and the
 * page says so.
 */
export function GeneratorPage() {
  const session = useSessionQuery();
  const vault = useUnlockedVault();
  const signedIn = session.data?.signedIn === true;
  const account = session.data?.username;
  const unlocked =
    signedIn && vault !== null && (account === undefined || account.toLowerCase() === vault.username.toLowerCase());
  return (
    <section className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
      <h1 className="text-3xl font-bold text-white">Password Generator</h1>
      {unlocked ? <AccountGenerator /> : <BrowserGenerator signedIn={signedIn} />}
    </section>
  );
}

function BrowserGenerator({ signedIn }: { signedIn: boolean }) {
  const settings = useBrowserGeneratorSettings();
  return (
    <>
      <p className="mt-3 text-slate-300">
        {signedIn ? (
          <>
            Your vault is locked in this tab: these settings are remembered only in this browser, and no history of generated
            passwords is kept.{' '}
            <Link to={paths.vault} className="text-cyan-300 underline">
              Unlock your vault
            </Link>{' '}
            to keep them with your account.
          </>
        ) : (
          <>
            You are not signed in: these settings are remembered only in this browser, and no history of generated passwords is
            kept.
          </>
        )}
      </p>
      <GeneratorCard state={settings} />
    </>
  );
}

function AccountGenerator() {
  const settings = useAccountGeneratorSettings();
  const history = useGeneratorHistory();
  return (
    <>
      <p className="mt-3 text-slate-300">
        Your settings are saved with your account, encrypted. Every password you copy here, or use in an item, is kept in your
        history below, encrypted and on every device.
      </p>
      <GeneratorCard state={settings} onCopied={(value) => void history.record(value)} />
      <GeneratorHistoryList history={history} />
    </>
  );
}

function GeneratorCard({ state, onCopied }: { state: GeneratorSettingsState; onCopied?: (value: string) => void }) {
  return (
    <div className="mt-6 rounded-2xl border border-slate-800 bg-slate-900/80 p-4 shadow-xl sm:p-6">
      {state.status === 'damaged' && (
        <div role="alert" className="mb-4 flex flex-wrap items-center gap-3 text-sm text-amber-300">
          <span>Your saved generator settings: {DAMAGED_DOCUMENT_MESSAGE}</span>
          <button type="button" className={smallButton} onClick={() => void state.reset?.()}>
            Start over with the defaults
          </button>
        </div>
      )}
      {state.saveProblem && <p className="mb-4 text-sm text-amber-300">Generator settings: {state.saveProblem}</p>}
      <GeneratorPanel settings={state.settings} onSettingsChange={state.setSettings} onCopied={onCopied} />
    </div>
  );
}
