import { startInvocation, showInvocation, type ArgvCall, type CliCallSettings, type Invocation } from '../cli-agent/argv.js';
/**
 * The Claude Code argv of one iteration:
 * `claude [--model M] [--effort E] --output-format json [extra args] --allowedTools t1 t2 … [--disallowedTools t …]
 *  [--resume <id>] --append-system-prompt <context> -p <prompt>`.
 * Each tool is its own argument; no shell is involved, so nothing in the
 * prompt is ever interpreted.
 */
export interface ClaudeArgsOptions {
  format: 'json' | 'text' | 'stream-json';
  /** With stream-json: the text as it streams in (--include-partial-messages); default true. */
  partialMessages?: boolean;
  allowedTools: readonly string[];
  /** Tools refused outright (--disallowedTools): a read-only call's writing tools. */
  deniedTools?: readonly string[];
}

/**
 * The extra arguments (CLAUDE_EXTRA_ARGS) go before --allowedTools, which takes every word after
 * it; a read-only call leaves out those that widen permissions.
 */
export function buildClaudeArgs(settings: CliCallSettings, call: ArgvCall, options: ClaudeArgsOptions): Invocation {
  const { file, args } = startInvocation(settings.command, 'Claude');
  if (settings.model) args.push('--model', settings.model);
  if (settings.effort) args.push('--effort', settings.effort);
  if (options.format === 'json') args.push('--output-format', 'json');
  if (options.format === 'stream-json') {
    args.push('--output-format', 'stream-json', '--verbose');
    if (options.partialMessages !== false) args.push('--include-partial-messages');
  }
  args.push(...(call.readOnly ? withoutPermissionModes(settings.extraArgs) : settings.extraArgs));
  if (options.allowedTools.length > 0) args.push('--allowedTools', ...options.allowedTools);
  if (options.deniedTools && options.deniedTools.length > 0) args.push('--disallowedTools', ...options.deniedTools);
  if (call.resumeSessionId) args.push('--resume', call.resumeSessionId);
  if (call.loopContext) args.push('--append-system-prompt', call.loopContext);
  // A prompt that starts with "-" (front matter "---") would be read as a flag.
  const prompt = call.prompt.startsWith('-') ? `\n${call.prompt}` : call.prompt;
  args.push('-p', prompt);
  return { file, args };
}

/** The user's extra arguments without those that widen permissions, which a read-only call must not inherit. */
export function withoutPermissionModes(extraArgs: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < extraArgs.length; i += 1) {
    const arg = extraArgs[i] as string;
    if (arg === '--dangerously-skip-permissions' || arg === '--allow-dangerously-skip-permissions' || arg.startsWith('--permission-mode=')) continue;
    if (arg === '--permission-mode') {
      i += 1;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/** argv with the prompt and context replaced by their sizes, for logs. */
export function redactArgs(invocation: Invocation): string {
  return showInvocation(invocation, { '-p': 'prompt', '--append-system-prompt': 'context' });
}
