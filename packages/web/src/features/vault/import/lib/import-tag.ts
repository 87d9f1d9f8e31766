/** The tag every item of one import carries: "Imported from Bitwarden (JSON) 2025-03-14" (local date). */
export function importTag(sourceLabel: string, at: Date): string {
  const date = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;
  // Tags are capped at 60 characters (DOCUMENT_LIMITS.tag): a long label is shortened, never the date.
  const prefix = 'Imported from ';
  const room = 60 - prefix.length - date.length - 1;
  const label = sourceLabel.length > room ? `${sourceLabel.slice(0, room - 1)}…` : sourceLabel;
  return `${prefix}${label} ${date}`;
}
