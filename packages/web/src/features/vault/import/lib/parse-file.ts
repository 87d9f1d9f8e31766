import { ImportFileError, ImportPasswordError, parseImport, parseMappedCsv } from '@lockit/transfer';
import type { ParseAnswer, ParseRequest } from './parse-protocol';

/** Parses one request and answers with the messages the page turns back into a result or an error. */
export async function parseRequest(request: ParseRequest, onProgress: (fraction: number) => void): Promise<ParseAnswer> {
  try {
    const result =
      request.format === 'csv-mapped' && request.mapping
        ? parseMappedCsv(request.file, request.mapping)
        : await parseImport(request.file, request.format, {
            password: request.password,
            keyFile: request.keyFile,
            onProgress,
          });
    return { kind: 'done', result };
  } catch (error) {
    if (error instanceof ImportPasswordError) return { kind: 'password-error', reason: error.reason, message: error.message };
    if (error instanceof ImportFileError) return { kind: 'file-error', message: error.message, line: error.line };
    return { kind: 'failed', message: error instanceof Error ? error.message : 'The file could not be read.' };
  }
}

/** The page's side: the message as the parser's own result or error. */
export function resultOf(message: ParseAnswer) {
  switch (message.kind) {
    case 'done':
      return message.result;
    case 'password-error':
      throw new ImportPasswordError(message.reason, message.message);
    case 'file-error':
      throw new ImportFileError(message.message, message.line);
    case 'failed':
      throw new Error(message.message);
  }
}
