import { startInvocation, showInvocation, type Invocation } from '../cli-agent/argv.js';
/**
 * The Claude Code argv of one iteration:
 * `claude [--model M] [--effort E] --output-format json [extra args] --allowedTools t1 t2 … [--disallowedTools t …]
 *  [--resume <id>] --append-system-prompt <context> -p <prompt>`.
 * Each tool is its own argument; no shell is involved, so nothing in the
 * prompt is ever interpreted.
 */
export interface ClaudeArgsOptions {
  command: readonly string[];
  model?: string;
  effort?: string;
  format: 'json' | 'text' | 'stream-json';
  /** With stream-json: the text as it streams in (--include-partial-messages); default true. */
  partialMessages?: boolean;
  /** The user's own arguments (CLAUDE_EXTRA_ARGS); before --allowedTools, which takes every word after it. */
  extraArgs?: readonly string[];
  allowedTools: readonly string[];
  /** Tools refused outright (--disallowedTools): a read-only call's writing tools. */
  deniedTools?: readonly string[];
  resumeSessionId?: string;
  loopContext?: string;
  prompt: string;
}

export function buildClaudeArgs(options: ClaudeArgsOptions): Invocation {
  const { file, args } = startInvocation(options.command, 'Claude');
  if (options.model) args.push('--model', options.model);
  if (options.effort) args.push('--effort', options.effort);
  if (options.format === 'json') args.push('--output-format', 'json');
  if (options.format === 'stream-json') {
    args.push('--output-format', 'stream-json', '--verbose');
    if (options.partialMessages !== false) args.push('--include-partial-messages');
  }
  if (options.extraArgs) args.push(...options.extraArgs);
  if (options.allowedTools.length > 0) args.push('--allowedTools', ...options.allowedTools);
  if (options.deniedTools && options.deniedTools.length > 0) args.push('--disallowedTools', ...options.deniedTools);
  if (options.resumeSessionId) args.push('--resume', options.resumeSessionId);
  if (options.loopContext) args.push('--append-system-prompt', options.loopContext);
  // A prompt that starts with "-" (front matter "---") would be read as a flag.
  const prompt = options.prompt.startsWith('-') ? `\n${options.prompt}` : options.prompt;
  args.push('-p', prompt);
  return { file, args };
}

/** argv with the prompt and context replaced by their sizes, for logs. */
export function redactArgs(invocation: Invocation): string {
  return showInvocation(invocation, { '-p': 'prompt', '--append-system-prompt': 'context' });
}
