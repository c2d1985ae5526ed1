import { createInterface } from 'node:readline';
import { formatDuration } from '../core/time-format.js';

export interface AskOptions<T extends string> {
  question: string;
  /** Accepted answers (first characters are enough: "w" for "wait"). */
  choices: readonly T[];
  defaultChoice: T;
  timeoutMs: number;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  signal?: AbortSignal;
}

/**
 * Asks one question on the terminal and returns the chosen answer, or the
 * default when the user presses Enter, answers nothing in time, or input ends.
 */
export async function askChoice<T extends string>(options: AskOptions<T>): Promise<T> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stderr;
  const rl = createInterface({ input, output, terminal: false });
  output.write(`${options.question} [${options.choices.join('/')}] (default ${options.defaultChoice} in ${formatDuration(options.timeoutMs / 1000)}): `);
  try {
    const answer = await new Promise<string | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), options.timeoutMs);
      const done = (value: string | undefined): void => {
        clearTimeout(timer);
        resolve(value);
      };
      rl.once('line', (line) => done(line));
      rl.once('close', () => done(undefined));
      options.signal?.addEventListener('abort', () => done(undefined), { once: true });
    });
    const text = (answer ?? '').trim().toLowerCase();
    if (answer === undefined) output.write('\n');
    if (text === '') return options.defaultChoice;
    return options.choices.find((c) => c.toLowerCase() === text || c.toLowerCase().startsWith(text)) ?? options.defaultChoice;
  } finally {
    rl.close();
  }
}
