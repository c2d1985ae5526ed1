import { showArg, startInvocation, type ArgvCall, type CliCallSettings, type Invocation } from '../cli-agent/argv.js';
/**
 * The Codex CLI argv of one iteration:
 * `codex exec [resume] --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox
 *  [-m M] [-c model_reasoning_effort="E"] [-c shell_environment_policy.exclude=[…]]
 *  [-c developer_instructions="<context>"] [extra…]
 *  [<session id>] -`, the prompt on stdin (the trailing `-`).
 *
 * - The prompt goes through stdin: PROMPT.md can outgrow what one argument may hold, and a
 *   prompt starting with "-" is never read as a flag.
 * - The loop context becomes a developer message of the thread's first call. Codex keeps a
 *   thread's developer instructions from its first call and ignores new ones on resume (seen
 *   with 0.169), so a resumed call carries the context at the head of the prompt instead, as
 *   does a context too long for one argument.
 * - Codex hands its whole environment to the commands it runs (0.169), its API key included:
 *   the key is excluded from theirs by name.
 * - Ralph runs unattended: nobody is there to approve a command, so Codex runs with approvals
 *   and its sandbox off, as Claude runs with its allowed tools. A user who wants Codex's own
 *   sandbox sets it in CODEX_EXTRA_ARGS (`-c sandbox_mode="workspace-write"`, or `--sandbox …`
 *   on a new thread); Ralph then leaves the bypass out and Codex enforces that mode itself.
 */

export interface CodexInvocation extends Invocation {
  /** What the CLI reads on stdin: the prompt. */
  input: string;
}

/**
 * Longest loop context passed as an argument: Linux refuses any single argument over 128 KiB
 * (and TOML escaping can grow it); a longer one goes on stdin ahead of the prompt.
 */
const MAX_CONTEXT_ARG_CHARS = 32 * 1024;

/** Extra arguments that choose Codex's own approval or sandbox mode instead of the bypass. */
const OWN_SAFETY_MODE =
  /^(?:-s|--sandbox(?:=.*)?|--full-auto|--approve-for-me|--dangerously-bypass-approvals-and-sandbox|(?:sandbox_mode|approval_policy)=.*)$/;

/**
 * `hiddenEnv`: variables Codex needs for itself that the commands it runs must not see (its API
 * key). A read-only call (the reviewer) runs in Codex's own `--sandbox read-only`, whatever the
 * extra arguments chose.
 */
export function buildCodexArgs(settings: CliCallSettings, call: ArgvCall, hiddenEnv: readonly string[] = []): CodexInvocation {
  const { file, args } = startInvocation(settings.command, 'Codex');
  const resume = call.resumeSessionId;
  args.push('exec');
  if (resume) args.push('resume');
  args.push('--json', '--skip-git-repo-check');
  const extraArgs = call.readOnly ? withoutSafetyModes(settings.extraArgs) : settings.extraArgs;
  if (call.readOnly) args.push('--sandbox', 'read-only');
  else if (!extraArgs.some((arg) => OWN_SAFETY_MODE.test(arg))) args.push('--dangerously-bypass-approvals-and-sandbox');
  if (settings.model) args.push('-m', settings.model);
  if (settings.effort) args.push('-c', `model_reasoning_effort=${tomlString(settings.effort)}`);
  if (hiddenEnv.length > 0) args.push('-c', `shell_environment_policy.exclude=[${hiddenEnv.map(tomlString).join(', ')}]`);
  const context = call.loopContext ?? '';
  const asDeveloper = context !== '' && !resume && context.length <= MAX_CONTEXT_ARG_CHARS;
  if (asDeveloper) args.push('-c', `developer_instructions=${tomlString(context)}`);
  args.push(...(resume ? sandboxAsSetting(extraArgs) : extraArgs));
  if (resume) args.push(resume);
  args.push('-');
  const input = context && !asDeveloper ? `${context}\n\n${call.prompt}` : call.prompt;
  return { file, args, input };
}

/** The extra arguments without any that choose an approval or sandbox mode (a read-only call sets its own). */
export function withoutSafetyModes(extraArgs: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < extraArgs.length; i += 1) {
    const arg = extraArgs[i] as string;
    if (arg === '--sandbox' || arg === '-s' || arg === '-a' || arg === '--ask-for-approval') {
      i += 1;
      continue;
    }
    if (OWN_SAFETY_MODE.test(arg) || /^--ask-for-approval=/.test(arg)) {
      // `-c sandbox_mode=…`: the -c before it goes too.
      if (out.at(-1) === '-c' || out.at(-1) === '--config') out.pop();
      continue;
    }
    out.push(arg);
  }
  return out;
}

/** `--sandbox X`, `-s X` and `--sandbox=X` as `-c sandbox_mode="X"`, the form `exec resume` accepts. */
export function sandboxAsSetting(extraArgs: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < extraArgs.length; i += 1) {
    const arg = extraArgs[i] as string;
    const inline = /^--sandbox=(.*)$/.exec(arg);
    if (inline) out.push('-c', `sandbox_mode=${tomlString(inline[1] as string)}`);
    else if ((arg === '--sandbox' || arg === '-s') && i + 1 < extraArgs.length) {
      out.push('-c', `sandbox_mode=${tomlString(extraArgs[i + 1] as string)}`);
      i += 1;
    } else out.push(arg);
  }
  return out;
}

/**
 * A TOML basic string: `-c key=value` parses the value as TOML, and a bare word that happens to
 * be valid TOML (a number, `true`, an inline table) would become that type.
 */
export function tomlString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else if (code >= 0xd800 && code <= 0xdfff) out += '\ufffd';
    else out += ch;
  }
  return `${out}"`;
}

/** argv with the loop context replaced by its size, for logs; the prompt is never in argv. */
export function redactCodexArgs(invocation: CodexInvocation): string {
  const shown = invocation.args.map((arg) => {
    if (arg.startsWith('developer_instructions=')) return `developer_instructions=<context:${arg.length - 'developer_instructions='.length} chars>`;
    return showArg(arg);
  });
  return [invocation.file, ...shown, `<prompt on stdin:${invocation.input.length} chars>`].join(' ');
}

/**
 * Whether the extra arguments put Codex's commands in its own sandbox (`--sandbox read-only` or
 * `workspace-write`, `--full-auto`, or a sandbox_mode setting other than danger-full-access).
 */
export function runsInCodexSandbox(extraArgs: readonly string[]): boolean {
  for (let i = 0; i < extraArgs.length; i += 1) {
    const arg = extraArgs[i] as string;
    if (arg === '--full-auto') return true;
    const mode =
      arg === '--sandbox' || arg === '-s' ? extraArgs[i + 1] : (/^--sandbox=(.*)$/.exec(arg)?.[1] ?? /^sandbox_mode\s*=\s*["']?([\w-]+)["']?$/.exec(arg)?.[1]);
    if (mode !== undefined && mode !== 'danger-full-access') return true;
  }
  return false;
}
