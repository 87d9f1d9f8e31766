import { useEffect, useState } from 'react';
import { useLocation, useParams } from 'react-router';
import type { OpenedShare, SharedLinkInfo } from '@lockit/contract';
import { openShareKeyed, ShareOpenError, type ShareContent } from '@lockit/crypto';
import { buttonPrimary, card } from '@/components/ui/styles';
import { serverMessageOf } from '@/lib/api-errors';
import { openSharedLink, sharedLinkInfo } from './share-links-api';
import { SharedContentView } from './shared-content-view';
import { SharedFileView } from './shared-file-view';

const input = 'rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-sm text-slate-100';

/**
 * The recipient's page, `/share/<id>#<key>`: no account needed. Loading it reads only the
 * share's state, which uses no opening, so a chat app's link preview costs nothing; the share
 * is opened (one opening used) only when the person clicks Open. The sealed share then stays in
 * this page's memory, so a mistyped password can be tried again without using another opening.
 */
export function SharedPage() {
  const { id = '' } = useParams();
  const linkKey = useLocation().hash.replace(/^#/, '');
  const [info, setInfo] = useState<SharedLinkInfo | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [sealed, setSealed] = useState<OpenedShare | null>(null);
  const [content, setContent] = useState<{ content: ShareContent; key: CryptoKey } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    sharedLinkInfo(id.toLowerCase()).then(setInfo, (error: unknown) =>
      setProblem(serverMessageOf(error) ?? 'This link could not be checked. Try again later.'),
    );
  }, [id]);

  const decrypt = async (share: OpenedShare) => {
    try {
      setContent(await openShareKeyed(share, linkKey, share.passwordSalt === null ? null : password));
      setProblem(null);
    } catch (error) {
      setProblem(error instanceof ShareOpenError ? error.message : 'This shared item could not be opened.');
    }
  };

  const open = async () => {
    setBusy(true);
    try {
      if (sealed) return await decrypt(sealed);
      const share = await openSharedLink(id.toLowerCase());
      setSealed(share);
      await decrypt(share);
    } catch (error) {
      setProblem(serverMessageOf(error) ?? 'This link could not be opened. Try again later.');
    } finally {
      setBusy(false);
    }
  };

  const unavailable =
    info?.status === 'expired'
      ? 'This link has expired.'
      : info?.status === 'used-up'
        ? 'This link has been opened as many times as allowed.'
        : null;
  const needsPassword = (sealed?.passwordSalt ?? info?.passwordSalt ?? null) !== null;

  return (
    <main className="mx-auto flex w-full max-w-xl flex-col gap-4 p-6">
      <section className={card} aria-labelledby="shared-title">
        <h1 id="shared-title" className="mb-3 text-2xl font-bold text-white">
          Shared with you
        </h1>
        {content && sealed ? (
          content.content.kind === 'file' ? (
            <SharedFileView id={sealed.id} file={content.content.file} shareKey={content.key} served={sealed.file} />
          ) : (
            <SharedContentView content={content.content} />
          )
        ) : unavailable ? (
          <p role="alert" className="text-slate-200">
            {unavailable}
          </p>
        ) : info ? (
          <form
            className="flex flex-col gap-3 text-slate-200"
            onSubmit={(event) => {
              event.preventDefault();
              void open();
            }}
          >
            <p className="text-sm text-slate-300">
              Someone shared a secret with you through Lockit. It is decrypted in this browser only.
              {sealed === null && ' Opening it may use up the link.'}
            </p>
            {needsPassword && (
              <label className="flex flex-col gap-1 text-sm">
                Password
                <input className={input} type="password" value={password} onChange={(event) => setPassword(event.target.value)} />
              </label>
            )}
            <button type="submit" className={buttonPrimary} disabled={busy}>
              {busy ? 'Opening…' : 'Open'}
            </button>
          </form>
        ) : (
          !problem && <p className="text-sm text-slate-400">Checking the link…</p>
        )}
        {problem && (
          <p role="alert" className="mt-3 rounded-lg border border-amber-700 bg-amber-950/40 p-3 text-sm text-amber-100">
            {problem}
          </p>
        )}
      </section>
    </main>
  );
}
