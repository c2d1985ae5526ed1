/**
 * Glob patterns over `/`-separated relative file paths (test_snapshot's
 * include/exclude lists). Unlike the session filter's globs, where `*` spans
 * dots and everything, a file glob respects directories:
 *
 * - `*` any run of characters inside one path segment, `?` one such character;
 * - `**` any number of whole segments (`src/**` = everything below src/,
 *   `**\/*.md` = every .md file);
 * - a pattern without `/` matches a file name in any directory (`*.rs`), as in
 *   .gitignore, because that is what people type;
 * - a trailing `/` means "everything below" (`node_modules/` = `node_modules/**`).
 *
 * Everything else is literal. Patterns that try to leave the tree (absolute,
 * `..` segments) are refused by checkGlobPattern so a caller can say so.
 */

function escapeLiteral(text: string): string {
  return text.replace(/[.+^${}()|[\]\\]/g, '\\$&');
}

function segmentToRegExp(segment: string): string {
  let out = '';
  for (const ch of segment) {
    if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else out += escapeLiteral(ch);
  }
  return out;
}

/** A problem with the pattern, or undefined when it can be used. */
export function checkGlobPattern(pattern: string): string | undefined {
  if (pattern.trim() === '') return 'a glob pattern may not be empty';
  if (pattern.includes('\0')) return 'a glob pattern may not contain NUL characters';
  if (pattern.startsWith('/') || /^[A-Za-z]:[\\/]/.test(pattern)) return `"${pattern}" is absolute; patterns are relative to the workspace`;
  if (pattern.split('/').some((part) => part === '..')) return `"${pattern}" contains "..": patterns may not leave the workspace`;
  return undefined;
}

/** The anchored RegExp for one pattern (call checkGlobPattern first). */
export function pathGlobToRegExp(pattern: string): RegExp {
  let glob = pattern.replace(/^\.\//, '');
  if (glob.endsWith('/')) glob += '**';
  if (!glob.includes('/')) glob = `**/${glob}`;
  const segments = glob.split('/');
  let body = '';
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === '**') {
      // Zero or more whole segments, each followed by a slash unless it ends the path.
      body += last ? '.*' : '(?:[^/]+/)*';
      return;
    }
    body += segmentToRegExp(segment) + (last ? '' : '/');
  });
  return new RegExp(`^${body}$`);
}

/** A matcher for a list of patterns: true when any matches. */
export function compileGlobs(patterns: readonly string[]): (path: string) => boolean {
  const regexps = patterns.map(pathGlobToRegExp);
  return (path) => regexps.some((re) => re.test(path));
}
