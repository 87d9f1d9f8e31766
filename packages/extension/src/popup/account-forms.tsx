import { useState, type FormEvent } from 'react';
import type { Status } from '../shared/messages';
import { send } from './send';
import { useAction } from './use-action';

interface Props {
  status: Status;
  onChange: () => Promise<void>;
}

/** Connect, Sign in, the second step, Unlock: one form at a time, each keyboard-only. */
export function AccountForms({ status, onChange }: Props) {
  switch (status.state) {
    case 'disconnected':
      return <ConnectForm onChange={onChange} />;
    case 'signed-out':
      return <SignInForm status={status} onChange={onChange} />;
    case 'second-factor':
      return <SecondFactorForm onChange={onChange} />;
    default:
      return <UnlockForm status={status} onChange={onChange} />;
  }
}

function ErrorLine({ text }: { text: string }) {
  return text ? (
    <p role="alert" className="error">
      {text}
    </p>
  ) : null;
}

function ConnectForm({ onChange }: Pick<Props, 'onChange'>) {
  const [server, setServer] = useState('');
  const { busy, error, run } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const typed = server.trim();
      const origin = new URL(/^https?:\/\//i.test(typed) ? typed : `https://${typed}`).origin;
      // The host permission for this one server, asked of the person on this click.
      const granted = await chrome.permissions.request({ origins: [`${origin}/*`] });
      if (!granted) throw new Error('Lockit needs permission to reach your server.');
      await send({ type: 'connect', server: typed });
      await onChange();
    });
  };
  return (
    <form onSubmit={submit} className="form">
      <h2>Connect to your server</h2>
      <label htmlFor="server">Server address</label>
      <input
        id="server"
        value={server}
        onChange={(e) => setServer(e.target.value)}
        placeholder="https://vault.example.com"
        autoFocus
        required
      />
      <ErrorLine text={error} />
      <button type="submit" disabled={busy}>
        Connect
      </button>
    </form>
  );
}

function SignInForm({ status, onChange }: Props) {
  const [username, setUsername] = useState(status.username ?? '');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await send({ type: 'sign-in', username, password });
      setPassword('');
      await onChange();
    });
  };
  return (
    <form onSubmit={submit} className="form">
      <h2>Sign in</h2>
      <label htmlFor="username">User name</label>
      <input
        id="username"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        autoComplete="username"
        autoFocus
        required
      />
      <label htmlFor="password">Master password</label>
      <input
        id="password"
        type="password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        autoComplete="current-password"
        required
      />
      <ErrorLine text={error} />
      <button type="submit" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}

function SecondFactorForm({ onChange }: Pick<Props, 'onChange'>) {
  const [method, setMethod] = useState<'totp' | 'recovery'>('totp');
  const [code, setCode] = useState('');
  const { busy, error, run } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await send({ type: 'second-factor', method, code });
      await onChange();
    });
  };
  return (
    <form onSubmit={submit} className="form">
      <h2>Two-step verification</h2>
      <label htmlFor="code">{method === 'totp' ? 'Authenticator code' : 'Recovery code'}</label>
      <input id="code" value={code} onChange={(e) => setCode(e.target.value)} autoComplete="one-time-code" autoFocus required />
      <ErrorLine text={error} />
      <button type="submit" disabled={busy}>
        Verify
      </button>
      <button type="button" className="link" onClick={() => setMethod(method === 'totp' ? 'recovery' : 'totp')}>
        {method === 'totp' ? 'Use a recovery code' : 'Use an authenticator code'}
      </button>
    </form>
  );
}

function UnlockForm({ status, onChange }: Props) {
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await send({ type: 'unlock', password });
      setPassword('');
      await onChange();
    });
  };
  return (
    <form onSubmit={submit} className="form">
      <h2>Unlock</h2>
      <p className="muted">Signed in as {status.username}.</p>
      <label htmlFor="unlock-password">Master password</label>
      <input
        id="unlock-password"
        type="password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        autoComplete="current-password"
        autoFocus
        required
      />
      <ErrorLine text={error} />
      <button type="submit" disabled={busy}>
        {busy ? 'Unlocking…' : 'Unlock'}
      </button>
      <button
        type="button"
        className="link"
        onClick={() =>
          void run(async () => {
            await send({ type: 'sign-out' });
            await onChange();
          })
        }
      >
        Sign out
      </button>
    </form>
  );
}
