import { readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { errorMessage, ExitCode, RalphError } from '../../../errors.js';

/** ralph-enable and ralph-import use exit code 4 for "the document does not exist". */
export const FILE_NOT_FOUND_EXIT = 4;

/** Bigger documents are not requirements but data dumps; they would not fit a prompt either. */
export const MAX_SOURCE_BYTES = 1024 * 1024;

export interface SourceDocument {
  /** Absolute path. */
  path: string;
  /** Base name, as shown to the user and to Claude. */
  name: string;
  text: string;
  bytes: number;
}

/**
 * Reads a requirements document (Markdown, text, JSON or any other text
 * format) and refuses, with a message saying what to do, anything that is
 * missing, a folder, empty, too big or binary.
 */
export function readSourceDocument(rawPath: string, cwd: string): SourceDocument {
  const path = resolve(cwd, rawPath);
  let size: number;
  try {
    const stat = statSync(path);
    if (stat.isDirectory())
      throw new RalphError(
        `${rawPath} is a folder, not a document`,
        ExitCode.RuntimeError,
        'Give the path of a text file such as prd.md, spec.txt or requirements.json.',
      );
    size = stat.size;
  } catch (error) {
    if (error instanceof RalphError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new RalphError(`document not found: ${rawPath}`, FILE_NOT_FOUND_EXIT, `Check the path (looked for ${path}).`);
    }
    throw new RalphError(`cannot read ${rawPath}: ${errorMessage(error)}`, ExitCode.RuntimeError);
  }
  if (size > MAX_SOURCE_BYTES) {
    throw new RalphError(
      `${rawPath} is too large (${size} bytes; at most ${MAX_SOURCE_BYTES})`,
      ExitCode.RuntimeError,
      'Split the document or keep only the requirements.',
    );
  }
  let buffer: Buffer;
  try {
    buffer = readFileSync(path);
  } catch (error) {
    throw new RalphError(`cannot read ${rawPath}: ${errorMessage(error)}`, ExitCode.RuntimeError);
  }
  const binaryHint = 'Give a text document such as .md, .txt or .json (export PDFs and Word files to text first).';
  if (buffer.includes(0)) throw new RalphError(`${rawPath} looks like a binary file, not text`, ExitCode.RuntimeError, binaryHint);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buffer).replace(/^\uFEFF/, '');
  } catch {
    throw new RalphError(`${rawPath} is not UTF-8 text`, ExitCode.RuntimeError, binaryHint);
  }
  if (text.trim() === '') throw new RalphError(`${rawPath} is empty`, ExitCode.RuntimeError, 'Write the requirements into it first.');
  return { path, name: basename(path), text, bytes: size };
}
