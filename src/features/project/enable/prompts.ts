import { createInterface } from 'node:readline';
import { RalphError } from '../../../errors.js';

/**
 * Wizard questions over injected streams: prompts go to `output` (stderr in
 * the real command, so stdout stays clean), answers come line by line from
 * `input`. Empty input takes the default; invalid input is asked again. The
 * end of input (Ctrl+D, or the terminal going away) cancels the wizard: it
 * neither hangs nor takes every default as if the user had agreed to them.
 */

/** The user ended the input before answering every question; nothing was written. */
export class WizardCancelledError extends RalphError {
  constructor() {
    super(
      'Cancelled: the input ended (Ctrl+D) before every question was answered, so nothing was changed.',
      1,
      'Run ralph-enable again to answer the questions, or ralph-enable --non-interactive to take the detected settings.',
    );
    this.name = 'WizardCancelledError';
  }
}
export interface PromptStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

export interface IntegerQuestion {
  defaultValue: number;
  min: number;
  max: number;
}

export interface Prompter {
  ask(question: string, defaultValue: string): Promise<string>;
  confirm(question: string, defaultYes: boolean): Promise<boolean>;
  askInteger(question: string, options: IntegerQuestion): Promise<number>;
  /** Returns the index of the chosen item. */
  select(question: string, choices: readonly string[], defaultIndex: number): Promise<number>;
  /** Writes a line of information (summaries, headings). */
  say(text: string): void;
  close(): void;
}

export function createPrompter(streams: PromptStreams): Prompter {
  const reader = createInterface({ input: streams.input, terminal: false, crlfDelay: Infinity });
  const queued: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let ended = false;
  reader.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else queued.push(line);
  });
  reader.on('close', () => {
    ended = true;
    for (const next of waiting.splice(0)) next(undefined);
  });
  const nextLine = (): Promise<string | undefined> => {
    if (queued.length > 0) return Promise.resolve(queued.shift());
    if (ended) return Promise.resolve(undefined);
    return new Promise((resolve) => waiting.push(resolve));
  };
  const write = (text: string): void => {
    streams.output.write(text);
  };

  /** Asks until `accept` returns a value; empty input gives `fallback`, the end of input cancels. */
  const askUntil = async <T>(prompt: string, fallback: T, accept: (answer: string) => T | undefined, retry: string): Promise<T> => {
    for (;;) {
      write(prompt);
      const line = await nextLine();
      if (line === undefined) {
        write('\n');
        throw new WizardCancelledError();
      }
      const answer = line.trim();
      if (answer === '') return fallback;
      const value = accept(answer);
      if (value !== undefined) return value;
      write(`${retry}\n`);
    }
  };

  return {
    ask: (question, defaultValue) => askUntil(`${question}${defaultValue ? ` [${defaultValue}]` : ''}: `, defaultValue, (a) => a, ''),
    confirm: (question, defaultYes) =>
      askUntil(
        `${question} [${defaultYes ? 'Y/n' : 'y/N'}]: `,
        defaultYes,
        (a) => {
          const v = a.toLowerCase();
          if (v === 'y' || v === 'yes') return true;
          if (v === 'n' || v === 'no') return false;
          return undefined;
        },
        'Please answer y or n.',
      ),
    askInteger: (question, { defaultValue, min, max }) =>
      askUntil(
        `${question} (${min}-${max}) [${defaultValue}]: `,
        defaultValue,
        (a) => {
          if (!/^\d+$/.test(a)) return undefined;
          const n = Number(a);
          return n >= min && n <= max ? n : undefined;
        },
        `Please enter a whole number from ${min} to ${max}.`,
      ),
    select: (question, choices, defaultIndex) => {
      write(`${question}\n`);
      choices.forEach((choice, i) => write(`  ${i + 1}) ${choice}\n`));
      return askUntil(
        `Choose 1-${choices.length} [${defaultIndex + 1}]: `,
        defaultIndex,
        (a) => {
          if (!/^\d+$/.test(a)) return undefined;
          const n = Number(a);
          return n >= 1 && n <= choices.length ? n - 1 : undefined;
        },
        `Please enter a number from 1 to ${choices.length}.`,
      );
    },
    say: (text) => write(`${text}\n`),
    close: () => reader.close(),
  };
}
