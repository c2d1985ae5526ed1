/**
 * Whether a round's diff made a check pass the wrong way: a test file
 * deleted, test cases removed, or a test skipped, focused (which skips the
 * others) or marked as expected to fail. Pure: reads `git diff` output.
 * The agent is told never to do this; when it does anyway, the item's result
 * says so for the person who reviews the pull request.
 */
const TEST_FILE = /(^|\/)(tests?|__tests__|spec)\/|\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)test_[^/]*\.py$|_test\.(py|go)$|Tests?\.(java|kt|cs)$|_spec\.rb$/;

/** A line that declares one test case. */
const TEST_CASE =
  /^\s*(?:(?:it|test)(?:\.(?:each\([^)]*\)|skip|only|todo|fails|concurrent))*\s*\(|[xf]it\s*\(|def test_\w*\s*\(|func Test\w*\s*\(|@Test\b|#\[test\])/;

/** A line that skips, focuses or expects the failure of tests. */
const SKIPPING =
  /\b(?:(?:it|test|describe|context|suite)\.(?:skip|only|todo|fails)\b|x(?:it|test|describe)\s*\(|f(?:it|describe)\s*\(|pytest\.mark\.(?:skip|skipif|xfail)\b|pytest\.skip\s*\(|unittest\.skip\w*\b|t\.Skip(?:Now|f)?\s*\(|@(?:Disabled|Ignore)\b)|#\[ignore\]/;

interface FileDiff {
  path: string;
  deleted: boolean;
  added: string[];
  removed: string[];
}

function parseDiff(diff: string): FileDiff[] {
  const files: FileDiff[] = [];
  let current: FileDiff | undefined;
  for (const line of diff.split('\n')) {
    const header = /^diff --git a\/(.+?) b\/(.+)$/.exec(line);
    if (header) {
      current = { path: header[2] ?? header[1] ?? '', deleted: false, added: [], removed: [] };
      files.push(current);
      continue;
    }
    if (!current) continue;
    if (line.startsWith('deleted file mode')) current.deleted = true;
    else if (line.startsWith('+++ ') || line.startsWith('--- ')) continue;
    else if (line.startsWith('+')) current.added.push(line.slice(1));
    else if (line.startsWith('-')) current.removed.push(line.slice(1));
  }
  return files;
}

const count = (lines: readonly string[], pattern: RegExp): number => lines.filter((line) => pattern.test(line)).length;

export function testTampering(diff: string): string[] {
  const found: string[] = [];
  for (const file of parseDiff(diff)) {
    const isTest = TEST_FILE.test(file.path);
    if (file.deleted && isTest) {
      found.push(`deleted the test file ${file.path}`);
      continue;
    }
    const skipped = count(file.added, SKIPPING) - count(file.removed, SKIPPING);
    if (skipped > 0) found.push(`skipped ${skipped} test${skipped === 1 ? '' : 's'} in ${file.path}`);
    if (!isTest) continue;
    const removed = count(file.removed, TEST_CASE) - count(file.added, TEST_CASE);
    if (removed > 0) found.push(`removed ${removed} test${removed === 1 ? '' : 's'} from ${file.path}`);
  }
  return found;
}
