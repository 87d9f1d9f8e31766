import { ImportFileError } from '../import-format';

/** The file's JSON, or an error naming the line where it stops being JSON (a cut or hand-edited export). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // A file cut short names no position ("Unexpected end of JSON input"): it ends at its last line.
    const position =
      /position (\d+)/.exec(String(error))?.[1] ?? (/end of JSON input/.test(String(error)) ? text.length : undefined);
    const line = position === undefined ? null : text.slice(0, Number(position)).split('\n').length;
    throw new ImportFileError(
      `${line === null ? 'The file' : `Line ${line}: the file`} is not valid JSON (it may be cut short or edited by hand).`,
      line,
    );
  }
}
