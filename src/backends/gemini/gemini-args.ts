import { startInvocation, showInvocation, type Invocation } from '../cli-agent/argv.js';
/**
 * The Gemini CLI argv of one iteration:
 * `gemini [--model M] --output-format stream-json --skip-trust [--approval-mode default]
 *  [--policy <file>] [extra args…] [--resume <id>] -p <context + prompt>`.
 *
 * - stream-json always: it carries everything the json document does (session id, the answer,
 *   tokens) and more (each tool call, each refused call with its command), line by line, so the
 *   live view and the plain run read the same stream.
 * - --skip-trust: Ralph runs the agent in the project the user pointed it at; without it an
 *   untrusted folder ends every call at once (exit 55).
 * - The loop context goes before the prompt: Gemini CLI can only replace its whole system
 *   prompt (GEMINI_SYSTEM_MD), which would drop its own instructions for its tools.
 */
export interface GeminiArgsOptions {
  command: readonly string[];
  model?: string;
  extraArgs: readonly string[];
  /** The policy file that allows ALLOWED_TOOLS (none: only Gemini's read-only tools). */
  policyPath?: string;
  resumeSessionId?: string;
  loopContext?: string;
  prompt: string;
  /** A call that must change nothing: the default approval mode always (the extra arguments' --yolo or mode left out). */
  readOnly?: boolean;
}

/** Flags that choose Gemini's approval mode themselves: Ralph then leaves the mode alone. */
const APPROVAL_FLAGS = /^(?:-y|--yolo|--approval-mode(?:=.*)?)$/;

/** The prompt Gemini receives: Ralph's loop context first, clearly marked, then PROMPT.md. */
export function composeGeminiPrompt(loopContext: string | undefined, prompt: string): string {
  if (!loopContext) return prompt;
  return `<loop_context>\n${loopContext}\n</loop_context>\n\n${prompt}`;
}

export function buildGeminiArgs(options: GeminiArgsOptions): Invocation {
  const { file, args } = startInvocation(options.command, 'Gemini');
  if (options.model) args.push('--model', options.model);
  args.push('--output-format', 'stream-json', '--skip-trust');
  const extraArgs = options.readOnly ? withoutApprovalModes(options.extraArgs) : options.extraArgs;
  if (!extraArgs.some((arg) => APPROVAL_FLAGS.test(arg))) args.push('--approval-mode', 'default');
  if (options.policyPath) args.push('--policy', options.policyPath);
  args.push(...extraArgs);
  if (options.resumeSessionId) args.push('--resume', options.resumeSessionId);
  const prompt = composeGeminiPrompt(options.loopContext, options.prompt);
  // A prompt that starts with "-" (front matter "---") would be read as a flag.
  args.push('-p', prompt.startsWith('-') ? `\n${prompt}` : prompt);
  return { file, args };
}

/** The extra arguments without those that choose an approval mode. */
export function withoutApprovalModes(extraArgs: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < extraArgs.length; i += 1) {
    const arg = extraArgs[i] as string;
    if (arg === '--approval-mode') {
      i += 1;
      continue;
    }
    if (APPROVAL_FLAGS.test(arg)) continue;
    out.push(arg);
  }
  return out;
}

/** argv with the prompt replaced by its size, for logs. */
export function redactGeminiArgs(invocation: Invocation): string {
  return showInvocation(invocation, { '-p': 'prompt' });
}
