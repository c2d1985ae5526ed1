import { closeSync, constants, fstatSync, openSync, writeSync, type BigIntStats } from 'node:fs';

/**
 * Rewriting a small file in place, for the documents the loop saves several times an
 * iteration. Replacing a file atomically (a new file renamed over the old one) makes the file
 * system create an inode and, on ext4, write the new file's data out at the rename: together
 * most of what an iteration costs Ralph itself. A file this process wrote and nobody touched
 * since can instead be overwritten where it is, in one write from its start: a reader then
 * meets either text whole, except for a read that runs at the very moment of the write, which
 * the document readers take again (document-store.ts).
 *
 * The new text is padded with spaces to the old size, so the write never leaves the tail of
 * the old text behind and no truncation (a second step a crash could fall between) is needed;
 * JSON ignores the spaces. A text much shorter than the file is left to the atomic write, so
 * a file does not stay large after its content shrank.
 */

/** What identifies one version of a file: device, inode, size and times. */
export function fileStamp(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

/** `content` padded with spaces to `size` bytes, before its final newline when it has one. */
export function padToSize(content: Buffer, size: number): Buffer {
  if (content.length >= size) return content;
  const spaces = Buffer.alloc(size - content.length, 0x20);
  const endsInNewline = content.length > 0 && content[content.length - 1] === 0x0a;
  return endsInNewline ? Buffer.concat([content.subarray(0, -1), spaces, content.subarray(-1)]) : Buffer.concat([content, spaces]);
}

/**
 * Overwrites `path` with `content` when the file there is still the version `expected`
 * stamped (a regular file with one name, unchanged since): returns the new stamp, or
 * undefined when the file must be replaced atomically instead. Never follows a symbolic link.
 */
export function rewriteInPlace(path: string, content: string, expected: string): string | undefined {
  let fd: number;
  try {
    // O_NONBLOCK: a named pipe in the file's place fails at once (nobody reads it) instead of waiting.
    fd = openSync(path, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const before = fstatSync(fd, { bigint: true });
    if (!before.isFile() || before.nlink !== 1n || fileStamp(before) !== expected) return undefined;
    const bytes = Buffer.from(content, 'utf8');
    const size = Number(before.size);
    if (bytes.length * 2 < size) return undefined;
    const padded = padToSize(bytes, size);
    let done = 0;
    while (done < padded.length) done += writeSync(fd, padded, done, padded.length - done, done);
    return fileStamp(fstatSync(fd, { bigint: true }));
  } finally {
    closeSync(fd);
  }
}
