import { KDBX_KEY_FILE_NOTE } from '@lockit/transfer';
import { useId, useState } from 'react';

/**
 * The key file of a KeePass database that needs one beside its password. It is read here, into
 * the page's memory, and handed to the parser with the password; nothing of it is sent anywhere.
 */
export function KeyFileInput({ onKeyFile }: { onKeyFile: (bytes: Uint8Array | undefined) => void }) {
  const id = useId();
  const [name, setName] = useState('');
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        Key file (if the database needs one)
      </label>
      <input
        id={id}
        type="file"
        className="text-sm text-slate-200"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (!file) {
            setName('');
            onKeyFile(undefined);
            return;
          }
          void file.arrayBuffer().then((buffer) => {
            setName(file.name);
            onKeyFile(new Uint8Array(buffer));
          });
        }}
      />
      {name !== '' && <p className="text-sm text-slate-300">Key file: {name}</p>}
      <p className="text-sm text-slate-400">{KDBX_KEY_FILE_NOTE}</p>
    </div>
  );
}
