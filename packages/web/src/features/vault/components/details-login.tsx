import type { ReactNode } from 'react';
import type { UrlMatchRule } from '@lockit/contract';
import { URL_MATCH_RULE_WORDS, type EntrySecrets, type OpenEntry } from '@lockit/client-core';
import { FieldBox, iconButton, type FieldOf } from './details-field';
import { TotpField } from './details-totp';

/** Only http(s) addresses become links; a bare host ("github.com") is taken as https. */
export function linkOf(url: string): string | null {
  const trimmed = url.trim();
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    const parsed = new URL(candidate);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function WebAddress({
  url,
  label,
  rule,
  copied,
  onCopy,
  onOpen,
}: {
  url: string;
  label: string;
  /** How the extension matches it, when not by its default. */
  rule: UrlMatchRule | undefined;
  copied: boolean;
  onCopy: () => void;
  onOpen: () => void;
}) {
  const href = linkOf(url);
  return (
    <FieldBox
      label={label}
      buttons={
        <>
          {href && (
            <a
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              className={iconButton}
              aria-label={`Open ${url} in a new tab`}
              data-icon="external"
              onClick={onOpen}
            />
          )}
          <button
            type="button"
            className={iconButton}
            aria-label={copied ? `${label} copied` : `Copy ${label.toLowerCase()}`}
            data-icon={copied ? 'check' : 'copy'}
            onClick={onCopy}
          />
        </>
      }
    >
      {href ? (
        <a
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          className="break-all text-cyan-300 underline-offset-2 hover:underline"
          onClick={onOpen}
        >
          {url}
        </a>
      ) : (
        <span className="break-all">{url}</span>
      )}
      {rule && <span className="block text-xs text-slate-400">Match: {URL_MATCH_RULE_WORDS[rule]}</span>}
    </FieldBox>
  );
}

/** A login's fields: user name, password, each web address (a link when it is one) and the live one-time code. */
export function loginSections(
  entry: OpenEntry,
  secrets: EntrySecrets | null,
  field: FieldOf,
  copied: ReadonlySet<string>,
  copy: (key: string, text: string, what: string) => void,
  onOpen: () => void,
): ReactNode[] {
  const sections: ReactNode[] = [];
  if (entry.username !== '') sections.push(field('username', 'User name', entry.username));
  if (secrets && secrets.password !== '')
    sections.push(field('password', 'Password', secrets.password, { hidden: true, what: 'a password' }));
  entry.urls.forEach((url, index) =>
    sections.push(
      <WebAddress
        key={`url-${index}`}
        url={url}
        rule={entry.urlRules?.[url]}
        label={entry.urls.length > 1 ? `Web address ${index + 1}` : 'Web address'}
        copied={copied.has(`url-${index}`)}
        onCopy={() => copy(`url-${index}`, url, 'a web address')}
        onOpen={onOpen}
      />,
    ),
  );
  if (secrets?.totp) {
    sections.push(
      <TotpField
        key="totp"
        seedText={secrets.totp}
        copied={copied.has('totp')}
        onCopy={(code) => copy('totp', code, 'a one-time code')}
      />,
    );
  }
  return sections;
}
