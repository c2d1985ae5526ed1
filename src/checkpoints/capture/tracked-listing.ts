import { createHash } from 'node:crypto';
import { isRalphStatePath } from '../ralph-state-paths.js';

/**
 * What `git ls-files -z -t -s --cached -o --directory` says about a project:
 * the tracked files (tagged H, S or M) and the untracked entries (tagged ?),
 * untracked directories collapsed to `dir/`. Paths are binary strings relative
 * to the project.
 */
export interface TrackedListing {
  /** Tracked files and symlinks outside Ralph's own state, in the index's order. */
  tracked: readonly string[];
  /** The same paths, for membership tests. */
  trackedSet: ReadonlySet<string>;
  /** Submodules: path → the commit the index records. */
  gitlinks: ReadonlyMap<string, string>;
  /** Untracked entries as listed; a directory ends in '/'. */
  untracked: readonly string[];
  /** Blob ids the index refers to, each once, in the index's order. */
  indexObjects: readonly string[];
  /** In a project below the top: a digest of its index entries as `ls-files -s` prints them; '' at the top. */
  indexView: string;
}

/**
 * The last listing parsed per project with what it said. Between iterations
 * the listing is usually the same bytes: comparing them is far cheaper than
 * splitting and slicing ten thousand entries again. Nothing returned is ever
 * changed by its users.
 */
const NUL = Buffer.alloc(1);

// Cache: the last parsed listing per project; reused only for the same bytes and prefix, so any loop
// may share it; replaced by the next listing that differs.
const lastParsed = new Map<string, { prefix: string; listing: Buffer; parsed: TrackedListing }>();

export function parseTrackedListing(project: string, prefix: string, listing: Buffer): TrackedListing {
  const last = lastParsed.get(project);
  if (last && last.prefix === prefix && last.listing.equals(listing)) return last.parsed;
  const parsed = parse(prefix, listing);
  lastParsed.set(project, { prefix, listing, parsed });
  return parsed;
}

function parse(prefix: string, listing: Buffer): TrackedListing {
  const tracked: string[] = [];
  const gitlinks = new Map<string, string>();
  const untracked: string[] = [];
  const objects = new Set<string>();
  // The digest reads the tracked entries as `ls-files -s` prints them, which is what older checkpoints recorded.
  const view = prefix ? createHash('sha1') : null;
  for (let start = 0; start < listing.length;) {
    let end = listing.indexOf(0, start);
    if (end === -1) end = listing.length;
    if (end > start + 2) {
      const line = listing.toString('latin1', start + 2, end);
      if (listing[start] === 0x3f /* ? */) untracked.push(line);
      else {
        view?.update(listing.subarray(start + 2, end));
        view?.update(NUL);
        // `<mode> <oid> <stage>\t<path>`
        const oidEnd = line.indexOf(' ', 7);
        const path = line.slice(line.indexOf('\t', oidEnd) + 1);
        const isGitlink = line.startsWith('160000 ');
        if (!isGitlink) objects.add(line.slice(7, oidEnd));
        if (!isRalphStatePath(path)) {
          if (isGitlink) gitlinks.set(path, line.slice(7, oidEnd));
          // A conflicted path is listed once per stage, one after the other.
          else if (tracked[tracked.length - 1] !== path) tracked.push(path);
        }
      }
    }
    start = end + 1;
  }
  return { tracked, trackedSet: new Set(tracked), gitlinks, untracked, indexObjects: [...objects], indexView: view ? view.digest('hex') : '' };
}
