import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { emptyAgentResult, type AgentResult, type PermissionDenial } from '../../agent-result.js';
import { checkFirstTasks } from '../../core/fix-plan.js';
import { errorMessage, ExitCode, RalphError } from '../../errors.js';
import { containedPathRefusal, removeContainedPath, writeContainedFile } from '../../infra/contained-files.js';
import { runGitText } from '../../infra/git.js';
import type { AgentBackend, AgentRequest, Clock, ProcessRunner } from '../../ports.js';
import { writeFileAtomic } from '../../state/json-file.js';
import type { BackendName } from '../agents.js';
import { loadableAgent } from '../registry.js';
import { mockResult, type MockCallFacts } from './mock-result.js';
import { parseMockScript, pickResponse, replayedAgent, type MockResponse } from './mock-script.js';
import type { BackendContext } from '../context.js';

export interface MockBackendOptions {
  scriptPath: string;
  projectDir: string;
  fixPlanPath: string;
  optionalSections: readonly string[];
  runner: ProcessRunner;
  clock: Clock;
  /** The zone of a reset time a raw scripted reply gives without one (default: this machine's). */
  timeZone?: string;
  /** The output format --dry-run names (the mock reads every format). */
  outputFormat?: string;
}

/** The mock backend of a loop: the configured script, acting on the project. */
export function createMockBackend(ctx: BackendContext): MockBackend {
  return new MockBackend({
    scriptPath: resolve(ctx.paths.project, ctx.config.mockScript),
    projectDir: ctx.paths.project,
    fixPlanPath: ctx.paths.fixPlan,
    optionalSections: ctx.config.optionalSections,
    runner: ctx.runner,
    clock: ctx.clock,
    outputFormat: ctx.config.outputFormat,
  });
}

export function loadMockScript(path: string): MockResponse[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new RalphError(
      `Mock script not found: ${path} (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}).`,
      ExitCode.Usage,
      'Write one with {"responses": [{"output": "..."}]} or point --mock-script at it.',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RalphError(`Mock script ${path} is not valid JSON: ${errorMessage(error)}`, ExitCode.Usage);
  }
  const parsed = parseMockScript(value);
  if (!parsed.ok) throw new RalphError(`Mock script ${path} is invalid:\n  ${parsed.errors.join('\n  ')}`, ExitCode.Usage);
  return parsed.responses;
}

/**
 * Replays scripted responses in-process as agent results, and applies their file effects.
 * No network, no API key. A reply is the agent's answer, made into a result directly; a reply
 * scripted as an agent CLI's raw output (`replay`, or `raw` / JSON for Claude Code) is read by
 * that agent's own reader and classifier, so a script can replay what a real CLI printed.
 */
export class MockBackend implements AgentBackend {
  readonly name = 'mock';
  readonly displayName = 'mock agent';
  private readonly responses: MockResponse[];
  private readonly consumed = new Set<number>();
  private readonly sessionId: string;

  constructor(private readonly options: MockBackendOptions) {
    this.responses = loadMockScript(options.scriptPath);
    this.sessionId = `mock-session-${options.clock.now().toString(36)}`;
  }

  get consumedCount(): number {
    return this.consumed.size;
  }

  get totalResponses(): number {
    return this.responses.length;
  }

  describe(): string {
    return `replay the next of ${this.responses.length - this.consumed.size} scripted responses left in ${this.options.scriptPath}`;
  }

  describeOutput(request: AgentRequest): string {
    return request.live ? 'stream-json' : (this.options.outputFormat ?? 'json');
  }

  async run(request: AgentRequest, signal: AbortSignal): Promise<AgentResult> {
    const clock = this.options.clock;
    const started = clock.now();
    const index = pickResponse(this.responses, this.consumed, `${request.prompt}\n${request.loopContext}`, request.readOnly === true);
    if (index === undefined) {
      const left = this.responses.length - this.consumed.size;
      const message =
        left === 0
          ? `mock responses exhausted: all ${this.responses.length} scripted responses were consumed (call ${this.consumed.size + 1} has none)`
          : `no remaining mock response matches the prompt (${this.consumed.size} of ${this.responses.length} consumed; ${left} left, all with trigger patterns that do not match)`;
      return {
        ...emptyAgentResult({ kind: 'fatal', message }, 'spawn_failed'),
        details: { mock_consumed: this.consumed.size, mock_total: this.responses.length, mock_exhausted: true },
      };
    }
    this.consumed.add(index);
    const response = this.responses[index] as MockResponse;
    const details = { mock_response: index, mock_consumed: this.consumed.size, mock_total: this.responses.length };

    if (response.delayMs > 0) {
      const limit = Math.min(response.delayMs, request.timeoutMs);
      try {
        await clock.sleep(limit, signal);
      } catch {
        return { ...emptyAgentResult({ kind: 'interrupted' }, 'interrupted', clock.now() - started), details };
      }
      if (response.delayMs > request.timeoutMs) return { ...emptyAgentResult({ kind: 'timeout' }, 'timeout', clock.now() - started), details };
    }
    if (signal.aborted) return { ...emptyAgentResult({ kind: 'interrupted' }, 'interrupted'), details };

    // A read-only call (the reviewer) changes nothing: the response's effects are refused as a real agent's tools would be.
    const denials = request.readOnly ? readOnlyDenials(response) : [];
    if (!request.readOnly) {
      const refused = this.refusedEffect(index, response);
      if (refused !== undefined) return { ...emptyAgentResult({ kind: 'fatal', message: refused }, 'spawn_failed', clock.now() - started), details };
      await this.applyEffects(index, response);
    }
    writeFileAtomic(request.outputLogPath, response.output);
    request.onOutput?.(response.output);
    const facts: MockCallFacts = { exitCode: response.exitCode, durationMs: clock.now() - started, details };
    const configured = this.options.timeZone;
    const zone = (): string => configured ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    const replayed = replayedAgent(response);
    if (replayed !== undefined) return this.replay(replayed, response.output, facts, request);
    const made = mockResult(response, response.sessionId ?? this.sessionId, facts, clock.now(), zone);
    const result = denials.length > 0 ? { ...made, permissionDenials: denials } : made;
    request.onProgress?.({
      kind: 'finished',
      isError: response.exitCode !== 0,
      answer: response.output,
      errorLabel: 'Error',
      reason: response.output.trim(),
      turns: 1,
      costUsd: response.costUsd,
      durationMs: facts.durationMs,
    });
    return result;
  }

  /** A reply that is an agent CLI's recorded output: read by that agent's reader, judged by its classifier. */
  private async replay(agent: BackendName, output: string, facts: MockCallFacts, request: AgentRequest): Promise<AgentResult> {
    const clock = this.options.clock;
    const cli = (await loadableAgent(agent).load()).replay?.({
      now: () => clock.now(),
      ...(this.options.timeZone !== undefined ? { timeZone: this.options.timeZone } : {}),
    });
    if (cli === undefined) throw new RalphError(`The ${agent} agent has no reader of recorded output to replay.`, ExitCode.Usage);
    const reader = cli.createReader(request.onProgress);
    reader.write(output);
    return cli.classify(
      { end: 'exited', exitCode: facts.exitCode, durationMs: facts.durationMs, output: reader.end(), stderrTail: '', details: facts.details },
      request,
    );
  }

  private describeRefusal(index: number, relative: string, reason: string): string {
    return `mock response ${index + 1} (responses[${index}] of ${this.options.scriptPath}): files["${relative}"] is refused: ${reason}. Nothing of this response was applied.`;
  }

  /**
   * Every file effect is checked before any is applied, so a response with one
   * bad path changes nothing; the mock agent never writes, deletes or
   * descends through a symlink, nor touches .git/.
   */
  private refusedEffect(index: number, response: MockResponse): string | undefined {
    for (const [relative, content] of Object.entries(response.files)) {
      const reason = containedPathRefusal(this.options.projectDir, relative, content === null ? 'delete' : 'write');
      if (reason !== undefined) return this.describeRefusal(index, relative, reason);
    }
    const plan = this.planInsideProject();
    if (response.checkTasks > 0 && plan !== undefined) {
      const reason = containedPathRefusal(this.options.projectDir, plan, 'write');
      if (reason !== undefined)
        return `mock response ${index + 1} (responses[${index}] of ${this.options.scriptPath}): check_tasks cannot update ${plan}: ${reason}. Nothing of this response was applied.`;
    }
    return undefined;
  }

  /** The fix plan's path relative to the project, when it lies inside it. */
  private planInsideProject(): string | undefined {
    const rel = relative(this.options.projectDir, this.options.fixPlanPath);
    return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? undefined : rel;
  }

  private async applyEffects(index: number, response: MockResponse): Promise<void> {
    const root = this.options.projectDir;
    for (const [relative, content] of Object.entries(response.files)) {
      try {
        if (content === null) removeContainedPath(root, relative);
        else writeContainedFile(root, relative, content);
      } catch (error) {
        throw new RalphError(this.describeRefusal(index, relative, errorMessage(error)), ExitCode.RuntimeError);
      }
    }
    if (response.checkTasks > 0 && existsSync(this.options.fixPlanPath)) {
      const plan = readFileSync(this.options.fixPlanPath, 'utf8');
      const ticked = checkFirstTasks(plan, this.options.optionalSections, response.checkTasks);
      const inside = this.planInsideProject();
      if (inside !== undefined) writeContainedFile(root, inside, ticked);
      else writeFileSync(this.options.fixPlanPath, ticked);
    }
    if (response.commit !== undefined && existsSync(join(root, '.git'))) {
      // The scripted agent commits as the repository's user, like a real one; never signed, no hooks.
      await runGitText(this.options.runner, ['add', '-A'], { cwd: root });
      await runGitText(this.options.runner, ['commit', '-q', '-m', response.commit], { cwd: root });
    }
  }
}

/** What a read-only call refuses of a scripted response: each file it would write or delete, the plan's ticks, the commit. */
function readOnlyDenials(response: MockResponse): PermissionDenial[] {
  const denials: PermissionDenial[] = Object.entries(response.files).map(([path, content]) => ({ tool: content === null ? 'Delete' : 'Write', detail: path }));
  if (response.checkTasks > 0) denials.push({ tool: 'Edit', detail: 'fix_plan.md' });
  if (response.commit !== undefined) denials.push({ tool: 'Bash', detail: 'git commit' });
  return denials;
}
