/** Hands a finished, checked file to the browser's downloads under its own name. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the bytes by the next turn; the URL would otherwise hold them.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
