/**
 * An agent CLI's own settings as every call of it uses them (the values of its declared
 * settings, '' or [] where unset or not declared): the one thing each argv builder takes from
 * the configuration, whole.
 */
export interface CliCallSettings {
  command: readonly string[];
  model: string;
  effort: string;
  /** The user's own arguments (<AGENT>_EXTRA_ARGS). */
  extraArgs: readonly string[];
}

/** The settings of an agent CLI nothing is configured for but its command (a replay, a one-off conversion). */
export function commandOnly(command: readonly string[]): CliCallSettings {
  return { command, model: '', effort: '', extraArgs: [] };
}

/** What of one call (an AgentRequest) an argv is made of. */
export interface ArgvCall {
  prompt: string;
  /** Ralph's loop context ('' or absent for none). */
  loopContext?: string;
  resumeSessionId?: string;
  /** A call that must change nothing (the reviewer): the agent's own read-only mode. */
  readOnly?: boolean;
}

/** An agent CLI's command line: the program and its arguments. */
export interface Invocation {
  file: string;
  args: string[];
}

/** The configured command as the start of a command line: its program and the words Ralph's own arguments follow. */
export function startInvocation(command: readonly string[], agent: string): Invocation {
  const [file, ...prefix] = command;
  // The config refuses an empty command first; this only keeps the types honest.
  if (file === undefined) throw new Error(`empty ${agent} command`);
  return { file, args: [...prefix] };
}

/** One word of a command line as a log shows it: quoted when it holds spaces, quotes or glob characters. */
export function showArg(arg: string): string {
  return /[\s"'*()]/.test(arg) ? JSON.stringify(arg) : arg;
}

/** The command line for logs, the word after each flag of `hidden` replaced by its size (`-p <prompt:12 chars>`). */
export function showInvocation(invocation: Invocation, hidden: Readonly<Record<string, string>>): string {
  const out: string[] = [invocation.file];
  for (let i = 0; i < invocation.args.length; i += 1) {
    const arg = invocation.args[i] as string;
    const label = Object.hasOwn(hidden, arg) ? hidden[arg] : undefined;
    const next = invocation.args[i + 1];
    if (label !== undefined && next !== undefined) {
      out.push(arg, `<${label}:${next.length} chars>`);
      i += 1;
    } else {
      out.push(showArg(arg));
    }
  }
  return out.join(' ');
}
