import { describe, expect, it } from 'vitest';
import { quickAnswer } from '../../../src/cli/ralph-quick-answers.js';
import { packageVersion } from '../../../src/infra/package-info.js';

const HELP = 'Usage: ralph [options] [command]\n';
const rendered = (): string => HELP;
const notBuilt = (): undefined => undefined;
const pipe = (): boolean => false;
const terminal = (): boolean => true;

describe('quickAnswer: what ralph prints before the parser loads', () => {
  it.each([['--version'], ['-V']])('%s prints the package version, on a terminal or a pipe', (flag) => {
    expect(quickAnswer([flag], pipe, notBuilt)).toBe(`${packageVersion()}\n`);
    expect(quickAnswer([flag], terminal, notBuilt)).toBe(`${packageVersion()}\n`);
  });

  it('--version never asks whether stdout is a terminal', () => {
    expect(quickAnswer(['--version'], () => expect.unreachable(), notBuilt)).toBe(`${packageVersion()}\n`);
  });

  it.each([['--help'], ['-h']])('%s to a pipe prints the help the build rendered', (flag) => {
    expect(quickAnswer([flag], pipe, rendered)).toBe(HELP);
  });

  it('leaves help on a terminal to the parser, which wraps it to the terminal width', () => {
    expect(quickAnswer(['--help'], terminal, rendered)).toBeUndefined();
  });

  it('leaves help to the parser when the build left no rendered text', () => {
    expect(quickAnswer(['--help'], pipe, notBuilt)).toBeUndefined();
  });

  it.each([[[]], [['--status']], [['--help', '--status']], [['run', '--help']], [['--version', '--json']], [['--verbose']]])(
    'leaves %j to the parser',
    (argv) => {
      expect(quickAnswer(argv, pipe, rendered)).toBeUndefined();
    },
  );
});
