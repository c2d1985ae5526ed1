/**
 * `git status --porcelain=v2 -z --branch --untracked-files=all`, parsed. Pure.
 * Paths are relative to the repository's top level.
 */
export interface GitStatus {
  /** HEAD commit; undefined on an unborn branch. */
  head?: string;
  /** Every path git reports: changed, staged, untracked, conflicted (both sides of a rename). */
  entries: Array<{ path: string; code: string }>;
}

export function parseGitStatus(output: string): GitStatus {
  const status: GitStatus = { entries: [] };
  const fields = output.split('\0');
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] as string;
    if (field === '') continue;
    if (field.startsWith('# branch.oid ')) {
      const oid = field.slice('# branch.oid '.length).trim();
      if (/^[0-9a-f]{40,64}$/.test(oid)) status.head = oid;
      continue;
    }
    if (field.startsWith('#')) continue;
    const kind = field[0];
    if (kind === '?' || kind === '!') {
      status.entries.push({ path: field.slice(2), code: kind });
    } else if (kind === '1') {
      // 1 XY sub mH mI mW hH hI path
      const parts = field.split(' ');
      status.entries.push({ path: parts.slice(8).join(' '), code: parts[1] ?? '' });
    } else if (kind === '2') {
      // 2 XY sub mH mI mW hH hI Xscore path, then the original path as the next field
      const parts = field.split(' ');
      status.entries.push({ path: parts.slice(9).join(' '), code: parts[1] ?? '' });
      const original = fields[i + 1];
      if (original !== undefined) status.entries.push({ path: original, code: 'renamed-from' });
      i += 1;
    } else if (kind === 'u') {
      // u XY sub m1 m2 m3 mW h1 h2 h3 path
      const parts = field.split(' ');
      status.entries.push({ path: parts.slice(10).join(' '), code: parts[1] ?? '' });
    }
  }
  return status;
}
