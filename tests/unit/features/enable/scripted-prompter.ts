import { PassThrough } from 'node:stream';
import { createPrompter, type Prompter } from '../../../../src/features/enable/prompts.js';

/** A prompter reading `answers` (one per line, then end of input) and recording everything it writes. */
export function scriptedPrompter(answers: readonly string[]): { prompter: Prompter; output: () => string } {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
  });
  input.end(answers.map((a) => `${a}\n`).join(''));
  return { prompter: createPrompter({ input, output }), output: () => written };
}
