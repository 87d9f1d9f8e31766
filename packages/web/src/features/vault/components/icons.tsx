import type { ReactNode } from 'react';

type IconName = 'eye' | 'eye-off' | 'copy' | 'check' | 'edit' | 'trash';

const SHAPES: Record<IconName, ReactNode> = {
  eye: (
    <>
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
    </>
  ),
  'eye-off': (
    <>
      <path d="M10.6 5.1A10 10 0 0 1 12 5c6.5 0 10 7 10 7a17 17 0 0 1-2.2 3.2M6.6 6.6C3.7 8.4 2 12 2 12s3.5 7 10 7a9.7 9.7 0 0 0 5.4-1.6" />
      <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2M2 2l20 20" />
    </>
  ),
  copy: (
    <>
      <rect x="9" y="9" width="12" height="12" rx="2" />
      <path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
    </>
  ),
  check: <path d="M20 6 9 17l-5-5" />,
  edit: (
    <>
      <path d="M12 20h9" />
      <path d="M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z" />
    </>
  ),
  trash: <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6" />,
};

const symbolId = (name: IconName) => `lockit-icon-${name}`;

/**
 * The row icons' shapes, drawn once per page. Each row's icon is an <svg> with one <use> of
 * its symbol: a search key mounts a screenful of rows with four icons each, and creating the
 * shapes and their attributes for every one of them was a visible part of that key's work.
 */
export function IconSprite() {
  return (
    <svg aria-hidden="true" className="absolute h-0 w-0 overflow-hidden">
      {(Object.keys(SHAPES) as IconName[]).map((name) => (
        <symbol
          key={name}
          id={symbolId(name)}
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth={2}
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          {SHAPES[name]}
        </symbol>
      ))}
    </svg>
  );
}

/** Small stroke icons for the row actions; decorative, the buttons carry the names. */
function Icon({ name }: { name: IconName }) {
  return (
    <svg data-icon={name} aria-hidden="true" className="h-5 w-5">
      <use href={`#${symbolId(name)}`} />
    </svg>
  );
}

export const EyeIcon = () => <Icon name="eye" />;
export const EyeOffIcon = () => <Icon name="eye-off" />;
export const CopyIcon = () => <Icon name="copy" />;
export const CheckIcon = () => <Icon name="check" />;
export const EditIcon = () => <Icon name="edit" />;
export const TrashIcon = () => <Icon name="trash" />;
