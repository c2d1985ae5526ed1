import { describe, expect, it } from 'vitest';
import { explainExit, firstWord, signalName } from '../../../src/infra/exit-explanation.js';

describe('explainExit', () => {
  it.each([
    ['npm test', 0, null, '', undefined],
    ['npm test', 1, null, 'FAIL', undefined],
    ['nonexistent_command_xyz', 127, null, 'sh: 1: nonexistent_command_xyz: not found\n', 'command not found: nonexistent_command_xyz'],
    ['true && tool --x', 127, null, 'bash: line 1: tool: command not found\n', 'command not found: tool'],
    ['FOO=1 mytool', 127, null, '', 'command not found: mytool'],
    ['./run.sh', 126, null, 'sh: 1: ./run.sh: Permission denied\n', 'not executable (permission denied or not a program): ./run.sh'],
    ['x', 137, null, '', 'ended by signal SIGKILL, killed — often the system running out of memory (exit 137 = 128 + 9)'],
    ['x', 143, null, '', 'ended by signal SIGTERM, terminated (exit 143 = 128 + 15)'],
    ['x', 139, null, '', 'ended by signal SIGSEGV, crashed (segmentation fault) (exit 139 = 128 + 11)'],
    ['x', 200, null, '', undefined],
    ['x', null, 'SIGINT', '', 'the shell was ended by signal SIGINT, interrupted'],
    ['x', null, 'SIGUSR1', '', 'the shell was ended by signal SIGUSR1'],
  ] as const)('%s exit %s signal %s', (command, code, signal, stderr, expected) => {
    expect(explainExit(command, code, signal, stderr)).toBe(expected);
  });
});

describe('firstWord and signalName', () => {
  it.each([
    ['npm test', 'npm'],
    ['  pytest -v', 'pytest'],
    ['CI=1 NODE_ENV=test npm test', 'npm'],
  ])('%j → %s', (command, word) => {
    expect(firstWord(command)).toBe(word);
  });

  it('names signals by number', () => {
    expect(signalName(9)).toBe('SIGKILL');
    expect(signalName(15)).toBe('SIGTERM');
    expect(signalName(999)).toBeUndefined();
  });
});
