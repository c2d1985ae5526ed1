import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import * as v from 'valibot';
import { isRecord } from '../core/guards.js';
import type { Receipt } from '../core/receipt.js';
import { receiptSchema } from './documents/receipt.js';
import { OddFileError, openErrorOf, readRegularFile, requireRegular } from './regular-file.js';
import { redactText } from './redaction.js';

/**
 * .ralph/logs/receipts.jsonl: one receipt per iteration, appended in one write each. The file
 * is opened for each receipt (once an iteration costs nothing) with O_APPEND, never through a
 * link (O_NOFOLLOW at the name, the logs folder itself checked to be a real folder), only when
 * it is a regular file (O_NONBLOCK, so a planted pipe fails instead of blocking), and with the
 * user's secrets redacted. A line a kill cut short is closed with a newline before the next one,
 * so the next receipt never joins it.
 */
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK | constants.O_NOFOLLOW;

function assertRealFolder(dir: string): void {
  const st = lstatSync(dir);
  if (!st.isDirectory()) throw new OddFileError(dir, st.isSymbolicLink() ? 'is a symbolic link, not a folder' : 'is not a folder', 'ENOTDIR');
}

function endsWithNewline(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

export function appendReceipt(path: string, receipt: Receipt): void {
  assertRealFolder(dirname(path));
  let fd: number;
  try {
    // O_RDWR for the look at the last byte; O_APPEND still puts every write at the end.
    fd = requireRegular(openSync(path, (APPEND & ~constants.O_WRONLY) | constants.O_RDWR, 0o644), path);
  } catch (error) {
    throw openErrorOf(error, path);
  }
  try {
    const line = `${endsWithNewline(fd) ? '' : '\n'}${redactText(JSON.stringify(receipt))}\n`;
    const bytes = Buffer.from(line, 'utf8');
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
  } finally {
    closeSync(fd);
  }
}

export interface ReceiptsRead {
  receipts: Receipt[];
  /** Lines skipped, each with why ("line 4: …"); a torn last line is one of them. */
  notes: string[];
}

function issueText(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0];
  if (!issue) return 'does not fit the receipt schema';
  const path = issue.path?.map((p) => String(p.key)).join('.') ?? '';
  if (issue.input === undefined) return `"${path}" is missing`;
  return `"${path}" is ${JSON.stringify(issue.input)?.slice(0, 60) ?? String(issue.input)}, expected ${issue.expected ?? 'another value'}`;
}

/** Receipts from the text of a receipts file; damaged lines are skipped with a note, never thrown. */
export function parseReceipts(text: string): ReceiptsRead {
  const receipts: Receipt[] = [];
  const notes: string[] = [];
  const lines = text.split('\n');
  const torn = lines[lines.length - 1] !== '';
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const n = index + 1;
    if (torn && index === lines.length - 1) {
      notes.push(`line ${n}: cut short (the loop was stopped while writing it); skipped`);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      notes.push(`line ${n}: not JSON; skipped`);
      return;
    }
    if (!isRecord(value)) {
      notes.push(`line ${n}: not a JSON object; skipped`);
      return;
    }
    const parsed = v.safeParse(receiptSchema, value);
    if (parsed.success) receipts.push(parsed.output);
    else notes.push(`line ${n}: ${issueText(parsed.issues)}; skipped`);
  });
  return { receipts, notes };
}

/** The receipts of a project; a missing file has none. Throws only for a file that cannot be read (OddFileError, permissions). */
export function readReceipts(path: string): ReceiptsRead {
  let text: string;
  try {
    text = readRegularFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { receipts: [], notes: [] };
    throw error;
  }
  return parseReceipts(text);
}
