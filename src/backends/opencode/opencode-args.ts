import { showArg, startInvocation, type ArgvCall, type CliCallSettings, type Invocation } from '../cli-agent/argv.js';
/**
 * The OpenCode argv of one iteration:
 * `opencode run --format json [--model provider/model] [extra args] [--session <id>] --title <t>`,
 * the loop context and the prompt written to its stdin. `opencode run` has no system-prompt
 * option, so Ralph's loop context goes first in the message; stdin carries both because a
 * PROMPT.md may be longer than one argument may be, and a prompt that starts with "-" would be
 * read as a flag. A title of Ralph's own spares the call OpenCode makes to the model to invent one.
 */
export interface OpencodeInvocation extends Invocation {
  /** What the CLI reads as its message. */
  input: string;
}

/** The model is "provider/model" ('' for OpenCode's own default); OpenCode has no effort setting. */
export function buildOpencodeArgs(settings: CliCallSettings, call: ArgvCall & { loop: number }): OpencodeInvocation {
  const { file, args } = startInvocation(settings.command, 'OpenCode');
  args.push('run', '--format', 'json');
  if (settings.model) args.push('--model', settings.model);
  args.push(...settings.extraArgs);
  if (call.resumeSessionId) args.push('--session', call.resumeSessionId);
  args.push('--title', `Ralph loop ${call.loop}`);
  const input = call.loopContext ? `${call.loopContext}\n\n${call.prompt}` : call.prompt;
  return { file, args, input };
}

/** The argv for logs, with the message's size instead of its text. */
export function describeOpencodeInvocation(invocation: OpencodeInvocation): string {
  const words = [invocation.file, ...invocation.args].map(showArg);
  return `${words.join(' ')} <message:${invocation.input.length} chars on stdin>`;
}
