import { startInvocation, showInvocation, type ArgvCall, type CliCallSettings, type Invocation } from '../cli-agent/argv.js';
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
/** Flags that choose Gemini's approval mode themselves: Ralph then leaves the mode alone. */
const APPROVAL_FLAGS = /^(?:-y|--yolo|--approval-mode(?:=.*)?)$/;

/** The prompt Gemini receives: Ralph's loop context first, clearly marked, then PROMPT.md. */
export function composeGeminiPrompt(loopContext: string | undefined, prompt: string): string {
  if (!loopContext) return prompt;
  return `<loop_context>\n${loopContext}\n</loop_context>\n\n${prompt}`;
}

/**
 * `policyPath`: the policy file that allows ALLOWED_TOOLS (none: only Gemini's read-only tools).
 * A read-only call runs in the default approval mode always (the extra arguments' --yolo or mode
 * left out). Gemini has no effort setting.
 */
export function buildGeminiArgs(settings: CliCallSettings, call: ArgvCall, policyPath?: string): Invocation {
  const { file, args } = startInvocation(settings.command, 'Gemini');
  if (settings.model) args.push('--model', settings.model);
  args.push('--output-format', 'stream-json', '--skip-trust');
  const extraArgs = call.readOnly ? withoutApprovalModes(settings.extraArgs) : settings.extraArgs;
  if (!extraArgs.some((arg) => APPROVAL_FLAGS.test(arg))) args.push('--approval-mode', 'default');
  if (policyPath) args.push('--policy', policyPath);
  args.push(...extraArgs);
  if (call.resumeSessionId) args.push('--resume', call.resumeSessionId);
  const prompt = composeGeminiPrompt(call.loopContext, call.prompt);
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
