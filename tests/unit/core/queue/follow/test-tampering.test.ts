import { describe, expect, it } from 'vitest';
import { testTampering } from '../../../../../src/core/queue/follow/test-tampering.js';

const fileDiff = (path: string, lines: string, deleted = false): string =>
  [
    `diff --git a/${path} b/${path}`,
    ...(deleted ? ['deleted file mode 100644'] : []),
    'index 1..2 100644',
    `--- a/${path}`,
    `+++ b/${path}`,
    '@@ -1 +1 @@',
    lines,
  ].join('\n');

describe('testTampering', () => {
  it.each([
    ['a deleted test file', fileDiff('tests/alpha.test.js', "-it('works', () => {});", true), ['deleted the test file tests/alpha.test.js']],
    ['a deleted Python test module', fileDiff('pkg/test_api.py', '-def test_get():', true), ['deleted the test file pkg/test_api.py']],
    ['a deleted source file', fileDiff('src/old.ts', '-export const a = 1;', true), []],
    ['a removed test case', fileDiff('src/a.test.ts', "-  it('adds', () => {\n-    expect(1).toBe(1);\n-  });"), ['removed 1 test from src/a.test.ts']],
    ['a renamed test case', fileDiff('src/a.test.ts', "-  it('adds', () => {\n+  it('sums', () => {"), []],
    ['it.skip added', fileDiff('src/a.test.ts', "-  it('adds', () => {\n+  it.skip('adds', () => {"), ['skipped 1 test in src/a.test.ts']],
    ['describe.only added', fileDiff('src/a.spec.ts', "+describe.only('x', () => {"), ['skipped 1 test in src/a.spec.ts']],
    ['xit', fileDiff('spec/a_spec.rb', "+  xit('works') do"), ['skipped 1 test in spec/a_spec.rb']],
    ['pytest skip mark', fileDiff('tests/test_api.py', '+@pytest.mark.skip(reason="flaky")'), ['skipped 1 test in tests/test_api.py']],
    ['pytest xfail', fileDiff('tests/test_api.py', '+@pytest.mark.xfail'), ['skipped 1 test in tests/test_api.py']],
    ['go t.Skip', fileDiff('api_test.go', '+\tt.Skip("later")'), ['skipped 1 test in api_test.go']],
    ['a removed go test', fileDiff('api_test.go', '-func TestGet(t *testing.T) {'), ['removed 1 test from api_test.go']],
    ['rust ignore', fileDiff('src/lib.rs', '+#[ignore]'), ['skipped 1 test in src/lib.rs']],
    ['a skip taken away', fileDiff('src/a.test.ts', "-  it.skip('adds', () => {\n+  it('adds', () => {"), []],
    ['an ordinary change', fileDiff('src/a.ts', '-const a = 1;\n+const a = 2;'), []],
  ])('%s', (_, diff, expected) => {
    expect(testTampering(diff)).toEqual(expected);
  });

  it('reads every file of a diff', () => {
    const diff = [fileDiff('tests/a.test.js', "-it('a', () => {});", true), fileDiff('tests/b.test.js', "+it.skip('b', () => {});")].join('\n');
    expect(testTampering(diff)).toEqual(['deleted the test file tests/a.test.js', 'skipped 1 test in tests/b.test.js']);
  });
});
