import { PassThrough } from 'node:stream';
import { createPrompter, type Prompter } from '../../../../../src/features/project/enable/prompts.js';

/** Enough Enter presses for every question a wizard has left. */
const ENTER_FOR_THE_REST = 20;

/**
 * A prompter reading `answers` (one per line), then Enter for every question
 * left (the defaults), then the end of input; with `endAfterAnswers` the input
 * ends right after the answers, as Ctrl+D would. Everything it writes is recorded.
 */
export function scriptedPrompter(answers: readonly string[], options: { endAfterAnswers?: boolean } = {}): { prompter: Prompter; output: () => string } {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
  });
  const lines = options.endAfterAnswers === true ? answers : [...answers, ...Array<string>(ENTER_FOR_THE_REST).fill('')];
  input.end(lines.map((a) => `${a}\n`).join(''));
  return { prompter: createPrompter({ input, output }), output: () => written };
}
