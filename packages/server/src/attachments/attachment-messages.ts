/** Texts of the attachment routes; the web app shows them as they are. */
export const ATTACHMENT_MESSAGES = {
  listed: 'OK',
  started: 'Upload started',
  partStored: 'Part stored',
  finished: 'File attached',
  renamed: 'File renamed',
  deleted: 'File deleted',
  entryNotFound: 'Password not found.',
  entryInTrash: 'This entry is in Trash: restore it before adding files to it.',
  fileNotFound: 'File not found.',
  alreadyExists: 'A file with this id already exists.',
  keyRotated: 'Your encryption key was rotated meanwhile, so this file was not attached. Reload Lockit and attach it again.',
  uploadFinished: 'This upload is already finished.',
  wrongOffset: (received: number, offset: number) =>
    `This upload has ${received} bytes, so the next part starts there, not at ${offset}. Send it again from there.`,
  pastAnnounced: 'This part goes past the size announced for the file.',
  notAllArrived: (received: number, size: number) =>
    `Only ${received} of the ${size} bytes announced have arrived: send the rest before finishing.`,
  emptyPart: 'A part needs at least one byte.',
  movedMeanwhile: 'Another request added to this upload meanwhile. Ask where it stands and go on from there.',
} as const;
