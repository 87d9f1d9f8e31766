import type { ShareContent } from '@lockit/crypto';

const LABELS = { title: 'Name', username: 'Username', password: 'Password', url: 'Web address', notes: 'Notes' } as const;

/** What a share held, as text only (never markup): a text, or the fields of an item copy that are not empty (a file has its own view). */
export function SharedContentView({ content }: { content: Exclude<ShareContent, { kind: 'file' }> }) {
  if (content.kind === 'text') {
    return (
      <pre className="rounded-lg bg-slate-950 p-3 font-mono text-sm break-words whitespace-pre-wrap text-slate-100">
        {content.text}
      </pre>
    );
  }
  const fields = (Object.keys(LABELS) as (keyof typeof LABELS)[]).filter((key) => content.item[key] !== '');
  return (
    <dl className="flex flex-col divide-y divide-slate-800 rounded-xl border border-slate-800">
      {fields.map((key) => (
        <div key={key} className="flex flex-col gap-1 p-3">
          <dt className="text-xs text-slate-400">{LABELS[key]}</dt>
          <dd className="font-mono text-sm break-words whitespace-pre-wrap text-slate-100">{content.item[key]}</dd>
        </div>
      ))}
    </dl>
  );
}
