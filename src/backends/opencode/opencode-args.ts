import { showArg, startInvocation, type Invocation } from '../cli-agent/argv.js';
/**
 * The OpenCode argv of one iteration:
 * `opencode run --format json [--model provider/model] [extra args] [--session <id>] --title <t>`,
 * the loop context and the prompt written to its stdin. `opencode run` has no system-prompt
 * option, so Ralph's loop context goes first in the message; stdin carries both because a
 * PROMPT.md may be longer than one argument may be, and a prompt that starts with "-" would be
 * read as a flag. A title of Ralph's own spares the call OpenCode makes to the model to invent one.
 */
export interface OpencodeArgsOptions {
  command: readonly string[];
  /** "provider/model"; empty for OpenCode's own default. */
  model?: string;
  /** The user's own arguments (OPENCODE_EXTRA_ARGS). */
  extraArgs?: readonly string[];
  resumeSessionId?: string;
  loop: number;
  loopContext?: string;
  prompt: string;
}

export interface OpencodeInvocation extends Invocation {
  /** What the CLI reads as its message. */
  input: string;
}

export function buildOpencodeArgs(options: OpencodeArgsOptions): OpencodeInvocation {
  const { file, args } = startInvocation(options.command, 'OpenCode');
  args.push('run', '--format', 'json');
  if (options.model) args.push('--model', options.model);
  if (options.extraArgs) args.push(...options.extraArgs);
  if (options.resumeSessionId) args.push('--session', options.resumeSessionId);
  args.push('--title', `Ralph loop ${options.loop}`);
  const input = options.loopContext ? `${options.loopContext}\n\n${options.prompt}` : options.prompt;
  return { file, args, input };
}

/** The argv for logs, with the message's size instead of its text. */
export function describeOpencodeInvocation(invocation: OpencodeInvocation): string {
  const words = [invocation.file, ...invocation.args].map(showArg);
  return `${words.join(' ')} <message:${invocation.input.length} chars on stdin>`;
}
