import { isRecord } from '../../core/guards.js';
import { containedPathProblem } from '../../infra/contained-files.js';
import { errorMessage } from '../../errors.js';
import { agentDeclaration, BACKEND_NAMES, type BackendName } from '../agents.js';

/**
 * The mock backend's script: ordered
 * responses with `output`, `exit_code`, `delay_ms`, `trigger_pattern`, plus
 * optional effects on the project so progress, verification and rollback can
 * be exercised without a model.
 */
export interface MockResponse {
  output: string;
  exitCode: number;
  delayMs: number;
  triggerPattern?: RegExp;
  triggerSource?: string;
  /**
   * The role the response plays. `"reviewer"`: only the reviewer's read-only call (--review) takes
   * it, and the worker's calls pass it by; any other hat is accepted and plays the worker (scripts
   * of other tools name roles of their own). A script with no reviewer at all answers the
   * reviewer with its next response, in order.
   */
  hat?: string;
  /**
   * The agent whose recorded output `output` is, read by that agent's own reader and judged by
   * its classifier ("codex", "gemini", …). A reply marked `raw`, or that looks like JSON, is
   * Claude Code's unless it names another: scripts written when the mock stood for Claude
   * Code replay as they did.
   */
  replay?: BackendName;
  /** `output` is what an agent CLI printed (Claude Code's unless `replay` says), not its answer. */
  raw: boolean;
  /** Files to write (string) or delete (null), relative to the project. */
  files: Record<string, string | null>;
  /** Tick this many unchecked blocking tasks in fix_plan.md. */
  checkTasks: number;
  /** Commit everything with this message (git projects only). */
  commit?: string;
  /** Stats reported in the result object. */
  costUsd: number;
  /** The cost stands for an estimate from tokens and list prices, as agents without a reported cost give. */
  costEstimated: boolean;
  inputTokens: number;
  outputTokens: number;
  sessionId?: string;
}

export type MockScriptResult = { ok: true; responses: MockResponse[] } | { ok: false; errors: string[] };

const KNOWN_FIELDS = new Set([
  'output',
  'exit_code',
  'delay_ms',
  'trigger_pattern',
  'hat',
  'raw',
  'replay',
  'files',
  'check_tasks',
  'commit',
  'cost_usd',
  'cost_estimated',
  'input_tokens',
  'output_tokens',
  'session_id',
]);

export function parseMockScript(value: unknown): MockScriptResult {
  const list = Array.isArray(value) ? value : isRecord(value) ? value['responses'] : undefined;
  if (!Array.isArray(list)) return { ok: false, errors: ['expected {"responses": [...]} or an array of responses'] };
  const errors: string[] = [];
  const responses: MockResponse[] = [];
  list.forEach((item, index) => {
    const at = `responses[${index}]`;
    if (!isRecord(item)) {
      errors.push(`${at}: expected an object`);
      return;
    }
    for (const key of Object.keys(item)) if (!KNOWN_FIELDS.has(key)) errors.push(`${at}: unknown field "${key}"`);
    const output = item['output'];
    if (typeof output !== 'string') errors.push(`${at}.output: required, must be a string`);
    const int = (key: string, fallback: number, min: number): number => {
      const v = item[key];
      if (v === undefined) return fallback;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
        errors.push(`${at}.${key}: must be a whole number ≥ ${min}`);
        return fallback;
      }
      return v;
    };
    const num = (key: string): number => {
      const v = item[key];
      if (v === undefined) return 0;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
        errors.push(`${at}.${key}: must be a number ≥ 0`);
        return 0;
      }
      return v;
    };
    const response: MockResponse = {
      output: typeof output === 'string' ? output : '',
      exitCode: int('exit_code', 0, 0),
      delayMs: int('delay_ms', 0, 0),
      raw: item['raw'] === true,
      files: {},
      checkTasks: int('check_tasks', 0, 0),
      costUsd: num('cost_usd'),
      costEstimated: item['cost_estimated'] === true,
      inputTokens: int('input_tokens', 0, 0),
      outputTokens: int('output_tokens', 0, 0),
    };
    const trigger = item['trigger_pattern'];
    if (trigger !== undefined) {
      if (typeof trigger !== 'string') errors.push(`${at}.trigger_pattern: must be a string`);
      else {
        try {
          response.triggerPattern = new RegExp(trigger);
          response.triggerSource = trigger;
        } catch (error) {
          errors.push(`${at}.trigger_pattern: invalid regular expression (${errorMessage(error)})`);
        }
      }
    }
    const replay = item['replay'];
    if (replay !== undefined) {
      const agents = BACKEND_NAMES.filter((name) => agentDeclaration(name).settings !== undefined);
      if (typeof replay === 'string' && (agents as readonly string[]).includes(replay)) response.replay = replay as BackendName;
      else errors.push(`${at}.replay: must name an agent with a CLI (${agents.join(', ')})`);
    }
    if (typeof item['hat'] === 'string') response.hat = item['hat'];
    if (typeof item['commit'] === 'string') response.commit = item['commit'];
    else if (item['commit'] !== undefined) errors.push(`${at}.commit: must be a commit message string`);
    if (typeof item['session_id'] === 'string') response.sessionId = item['session_id'];
    if (item['cost_estimated'] !== undefined && typeof item['cost_estimated'] !== 'boolean') errors.push(`${at}.cost_estimated: must be true or false`);
    const files = item['files'];
    if (files !== undefined) {
      if (!isRecord(files)) errors.push(`${at}.files: must be an object of path → content (or null to delete)`);
      else
        for (const [path, content] of Object.entries(files)) {
          const problem = containedPathProblem(path);
          if (problem !== undefined) errors.push(`${at}.files: "${path}" is refused (${problem}); use a relative path inside the project`);
          else if (content !== null && typeof content !== 'string') errors.push(`${at}.files["${path}"]: must be a string or null`);
          else response.files[path] = content;
        }
    }
    responses.push(response);
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, responses };
}

/**
 * Index of the response to use for this call: the first unconsumed one whose
 * trigger pattern (if any) matches the prompt.
 */
export const REVIEWER_HAT = 'reviewer';

export function pickResponse(responses: readonly MockResponse[], consumed: ReadonlySet<number>, prompt: string, reviewer = false): number | undefined {
  const scriptHasReviewer = responses.some((r) => r.hat === REVIEWER_HAT);
  for (let i = 0; i < responses.length; i += 1) {
    if (consumed.has(i)) continue;
    const response = responses[i] as MockResponse;
    const forReviewer = response.hat === REVIEWER_HAT;
    if (reviewer ? scriptHasReviewer && !forReviewer : forReviewer) continue;
    const pattern = response.triggerPattern;
    if (pattern === undefined || pattern.test(prompt)) return i;
  }
  return undefined;
}

/** The agent whose recorded output a reply replays, or undefined for a reply that is the agent's answer. */
export function replayedAgent(response: MockResponse): BackendName | undefined {
  if (response.replay !== undefined) return response.replay;
  const trimmed = response.output.trimStart();
  return response.raw || trimmed.startsWith('{') || trimmed.startsWith('[') ? 'claude' : undefined;
}
