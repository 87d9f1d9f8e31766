/** The folder name's binding lives in the client core, shared with the command line's agent. */
export { openFolderName, sealFolderName } from '@lockit/client-core';
