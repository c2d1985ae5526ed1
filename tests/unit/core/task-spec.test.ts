import { describe, expect, it } from 'vitest';
import { parseTaskSpec, type TaskSpec } from '../../../src/core/task-spec.js';
import { taskVerifyFlags } from '../../../src/config/task-verify-flags.js';

function ok(input: string): TaskSpec {
  const parsed = parseTaskSpec(input);
  if (!parsed.ok) throw new Error(`expected ${input} to parse: ${parsed.error.message}`);
  return parsed.spec;
}

function err(input: string) {
  const parsed = parseTaskSpec(input);
  if (parsed.ok) throw new Error(`expected ${input} to fail, got ${JSON.stringify(parsed.spec)}`);
  return parsed.error;
}

describe("parseTaskSpec: the seeds' examples", () => {
  it.each<[string, TaskSpec]>([
    ['>>implement-feature :: verify:"npm test"', { task: 'implement-feature', verify: { command: 'npm test' }, criteria: [] }],
    ['>>fix-bug :: verify:"pytest -v" loop:true', { task: 'fix-bug', verify: { command: 'pytest -v', loop: true }, criteria: [] }],
    [
      '>>refactor-module :: verify:"npm run build" checkpoint:true rollback:true',
      { task: 'refactor-module', verify: { command: 'npm run build', checkpoint: true, rollback: true }, criteria: [] },
    ],
    [
      '>>optimize-code :: verify:"npm run lint" max:10 timeout:120',
      { task: 'optimize-code', verify: { command: 'npm run lint', max: 10, timeout: 120 }, criteria: [] },
    ],
    [
      '>>write-api :: verify:"npm test" :: code-quality :: "follows REST conventions"',
      { task: 'write-api', verify: { command: 'npm test' }, criteria: ['code-quality', 'follows REST conventions'] },
    ],
    [">>fix-auth-bug :: verify:'npm test'", { task: 'fix-auth-bug', verify: { command: 'npm test' }, criteria: [] }],
    ['>>echo-test :: verify:"echo SUCCESS && exit 0"', { task: 'echo-test', verify: { command: 'echo SUCCESS && exit 0' }, criteria: [] }],
    ['>>slow-task :: verify:"sleep 60" timeout:2', { task: 'slow-task', verify: { command: 'sleep 60', timeout: 2 }, criteria: [] }],
    [
      '>>test-submodule :: verify:"npm test" workingDir:"./packages/core"',
      { task: 'test-submodule', verify: { command: 'npm test', workingDir: './packages/core' }, criteria: [] },
    ],
    ['>>fix-all-tests :: verify:"npm test" loop:true max:10', { task: 'fix-all-tests', verify: { command: 'npm test', loop: true, max: 10 }, criteria: [] }],
    [
      '>>fix-bug :: verify:"pytest -v" :: "follows coding standards"',
      { task: 'fix-bug', verify: { command: 'pytest -v' }, criteria: ['follows coding standards'] },
    ],
  ])('%s', (input, expected) => {
    expect(ok(input)).toEqual(expected);
  });

  it('the full example of the brief', () => {
    expect(
      ok('>>fix-auth :: verify:"npm test" max:5 timeout:120 checkpoint:true rollback:true loop:true :fast :: "follows REST conventions" :: code-quality'),
    ).toEqual({
      task: 'fix-auth',
      verify: { command: 'npm test', max: 5, timeout: 120, checkpoint: true, rollback: true, loop: true, preset: 'fast' },
      criteria: ['follows REST conventions', 'code-quality'],
    });
  });
});

describe('parseTaskSpec: task text', () => {
  it.each([
    ['fix-auth', 'fix-auth'],
    ['  >>fix-auth  ', 'fix-auth'],
    ['Fix the login bug in src/auth.ts :: verify:"npm test"', 'Fix the login bug in src/auth.ts'],
    ['>>fix the user\'s login :: verify:"npm test"', "fix the user's login"],
    ['>>"fix the bug :: really" :: verify:"npm test"', 'fix the bug :: really'],
    [">>make 'quoted' words work", "make 'quoted' words work"],
  ])('%j → task %j', (input, task) => {
    expect(ok(input).task).toBe(task);
  });

  it('has no verify gate when none is given', () => {
    expect(ok('>>just do it')).toEqual({ task: 'just do it', criteria: [] });
  });
});

describe('parseTaskSpec: verify options', () => {
  it.each([
    [':fast', { preset: 'fast' }],
    [':full', { preset: 'full' }],
    [':EXTENDED', { preset: 'extended' }],
    ['checkpoint:false rollback:no loop:0', { checkpoint: false, rollback: false, loop: false }],
    ['checkpoint:yes rollback:on loop:1', { checkpoint: true, rollback: true, loop: true }],
    ["workingDir:'packages/a b'", { workingDir: 'packages/a b' }],
    ['workingdir:pkg', { workingDir: 'pkg' }],
    ['MAX:3', { max: 3 }],
    ['timeout:3600', { timeout: 3600 }],
  ])('%s', (options, expected) => {
    expect(ok(`>>t :: verify:"npm test" ${options}`).verify).toEqual({ command: 'npm test', ...expected });
  });

  it('accepts a one-word command without quotes', () => {
    expect(ok('>>t :: verify:make max:2').verify).toEqual({ command: 'make', max: 2 });
  });

  it('accepts a space after verify:', () => {
    expect(ok('>>t :: verify: "npm test" max:2').verify).toEqual({ command: 'npm test', max: 2 });
  });

  it('keeps shell syntax inside quotes untouched, including :: and backslashes', () => {
    expect(ok(`>>t :: verify:"grep -E 'a\\|b' f && echo a::b"`).verify?.command).toBe("grep -E 'a\\|b' f && echo a::b");
    expect(ok(`>>t :: verify:"echo \\"hi\\""`).verify?.command).toBe('echo "hi"');
    expect(ok(`>>t :: verify:'echo "hi" && test \\'x\\' = x'`).verify?.command).toBe(`echo "hi" && test 'x' = x`);
  });

  it('works without spaces around ::', () => {
    expect(ok('>>t::verify:"npm test"::"tidy"')).toEqual({ task: 't', verify: { command: 'npm test' }, criteria: ['tidy'] });
  });
});

describe('parseTaskSpec: criteria', () => {
  it.each([
    ['>>t :: code-quality', ['code-quality']],
    ['>>t :: "follows REST conventions"', ['follows REST conventions']],
    ['>>t :: security:"no secrets in logs"', ['security: no secrets in logs']],
    ['>>t :: keep it small and readable', ['keep it small and readable']],
  ])('%s', (input, criteria) => {
    expect(ok(input).criteria).toEqual(criteria);
  });
});

describe('parseTaskSpec: errors name the token and its position', () => {
  it('unknown option', () => {
    const input = '>>fix :: verify:"npm test" retries:3';
    expect(err(input)).toEqual({
      message: 'unknown option "retries:3" at character 28; known: max, timeout, checkpoint, rollback, loop, workingDir, :fast, :full, :extended',
      token: 'retries:3',
      index: 27,
    });
    expect(input.slice(27)).toBe('retries:3');
  });

  it('unknown preset', () => {
    expect(err('>>t :: verify:"x" :quick').message).toBe(
      'unknown option ":quick" at character 19; known: max, timeout, checkpoint, rollback, loop, workingDir, :fast, :full, :extended',
    );
  });

  it('an unquoted command with spaces', () => {
    expect(err('>>t :: verify:npm test').message).toBe('unknown option "test" at character 19; quote a command that has spaces: verify:"npm test"');
  });

  it.each([
    ['>>t :: verify:"x" max:abc', 'invalid number "max:abc" at character 19; expected a whole number from 1 to 100', 'max:abc', 18],
    ['>>t :: verify:"x" max:0', 'invalid number "max:0" at character 19; expected a whole number from 1 to 100', 'max:0', 18],
    ['>>t :: verify:"x" max:101', 'invalid number "max:101" at character 19; expected a whole number from 1 to 100', 'max:101', 18],
    ['>>t :: verify:"x" timeout:-5', 'invalid number "timeout:-5" at character 19; expected a whole number of seconds from 1 to 3600', 'timeout:-5', 18],
    ['>>t :: verify:"x" timeout:1.5', 'invalid number "timeout:1.5" at character 19; expected a whole number of seconds from 1 to 3600', 'timeout:1.5', 18],
  ])('bad number: %s', (input, message, token, index) => {
    expect(err(input)).toEqual({ message, token, index });
  });

  it('bad boolean', () => {
    expect(err('>>t :: verify:"x" checkpoint:maybe')).toEqual({
      message: 'invalid value "checkpoint:maybe" at character 19; expected true or false',
      token: 'checkpoint:maybe',
      index: 18,
    });
  });

  it('missing value', () => {
    expect(err('>>t :: verify:"x" max:').message).toBe('missing value in "max:" at character 19');
  });

  it('unterminated quote', () => {
    expect(err('>>t :: verify:"npm test')).toEqual({ message: 'unterminated quote (") starting at character 15', token: '"npm test', index: 14 });
    expect(err(">>t :: verify:'npm test").message).toBe("unterminated quote (') starting at character 15");
  });

  it.each([['>>t :: verify:""'], [">>t :: verify:'   '"], ['>>t :: verify:'], ['>>t :: verify: max:3']])('empty verify command: %s', (input) => {
    const e = err(input);
    expect(e.message).toMatch(/^empty verify command at character 8; write verify:"your command"$/);
    expect(e.index).toBe(7);
  });

  it('duplicate verify gates', () => {
    expect(err('>>t :: verify:"a" :: verify:"b"')).toEqual({
      message: 'duplicate verify gate "verify:"b"" at character 22; only one verify:"…" is allowed',
      token: 'verify:"b"',
      index: 21,
    });
  });

  it('duplicate option and preset', () => {
    expect(err('>>t :: verify:"a" max:2 max:3').message).toBe('duplicate option "max:3" at character 25; max is already set');
    expect(err('>>t :: verify:"a" :fast :full').message).toBe('duplicate preset ":full" at character 25; only one of :fast, :full, :extended');
  });

  it('options outside a verify gate', () => {
    expect(err('>>t :: max:3').message).toBe('option "max:3" at character 8 must follow verify:"…" in the same "::" gate');
    expect(err('>>t :: :fast').message).toBe('option ":fast" at character 8 must follow verify:"…" in the same "::" gate');
  });

  it('a misspelt verify', () => {
    expect(err('>>t :: verfy:"npm test"').message).toBe('unknown gate "verfy:" at character 8; did you mean verify:?');
  });

  it('empty gate and missing task', () => {
    expect(err('>>t :: verify:"x" ::')).toEqual({ message: 'empty gate after "::" at character 19', token: '::', index: 18 });
    expect(err('>> :: verify:"npm test"').message).toMatch(/^missing task/);
    expect(err('').message).toMatch(/^missing task/);
  });

  it('text after a quoted criterion', () => {
    expect(err('>>t :: "tidy" extra').message).toBe('unexpected "extra" at character 15 after the quoted criterion; separate gates with "::"');
  });

  it('empty criterion', () => {
    expect(err('>>t :: ""').message).toBe('empty criterion at character 8');
  });
});

describe('taskVerifyFlags', () => {
  it('maps the task options onto config fields', () => {
    expect(
      taskVerifyFlags({ command: 'npm test', max: 3, timeout: 60, preset: 'fast', checkpoint: true, rollback: false, loop: true, workingDir: 'pkg' }),
    ).toEqual({
      verifyCommand: 'npm test',
      verifyMaxAttempts: '3',
      verifyTimeoutSeconds: '60',
      verifyPreset: 'fast',
      checkpoint: true,
      rollbackOnFail: false,
      verifyCwd: 'pkg',
    });
  });
});
