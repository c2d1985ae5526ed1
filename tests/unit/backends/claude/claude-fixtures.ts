import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PermissionDenial } from '../../../../src/agent-result.js';
import type { OutputFormat, RateLimitInfo } from '../../../../src/backends/claude/claude-output.js';

/**
 * The recorded Claude CLI outputs of tests/fixtures/claude-cli (2.1.197) and
 * its v2.1.330/ copy, with their manifest entries, and an independent reading
 * of each file with JSON.parse to compare the streaming parser against.
 */
export const FIXTURE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/claude-cli');
export const FIXTURE_DIRS = ['', 'v2.1.330'] as const;

export interface FixtureCase {
  /** `json-error-auth.json` or `v2.1.330/json-error-auth.json`. */
  name: string;
  file: string;
  dir: string;
  exitCode: number;
  stdout: string;
  stderr: string;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

interface ManifestCase {
  file: string;
  exit_code: number;
  stderr_file: string | null;
}

function isManifestCase(value: unknown): value is ManifestCase {
  if (!isObj(value)) return false;
  return (
    typeof value['file'] === 'string' && typeof value['exit_code'] === 'number' && (value['stderr_file'] === null || typeof value['stderr_file'] === 'string')
  );
}

export function loadManifest(dir: string): ManifestCase[] {
  const raw: unknown = JSON.parse(readFileSync(join(FIXTURE_ROOT, dir, 'manifest.json'), 'utf8'));
  const cases = isObj(raw) ? raw['cases'] : undefined;
  if (!Array.isArray(cases)) throw new Error(`manifest in ${dir || '.'} has no cases`);
  return cases.filter(isManifestCase);
}

let cache: FixtureCase[] | undefined;

export function loadFixtures(): FixtureCase[] {
  cache ??= FIXTURE_DIRS.flatMap((dir) =>
    loadManifest(dir).map((c) => {
      const stderrPath = c.stderr_file ? join(FIXTURE_ROOT, dir, c.stderr_file) : undefined;
      return {
        name: dir ? `${dir}/${c.file}` : c.file,
        file: c.file,
        dir,
        exitCode: c.exit_code,
        stdout: readFileSync(join(FIXTURE_ROOT, dir, c.file), 'utf8'),
        stderr: stderrPath && existsSync(stderrPath) ? readFileSync(stderrPath, 'utf8') : '',
      };
    }),
  );
  return cache;
}

export function fixture(name: string): FixtureCase {
  const found = loadFixtures().find((f) => f.name === name);
  if (!found) throw new Error(`no fixture ${name}`);
  return found;
}

/** What a correct reader must find in a fixture, computed with JSON.parse. */
export interface Expected {
  format: OutputFormat;
  hasResult: boolean;
  sessionId?: string;
  costUsd?: number;
  isError?: boolean;
  subtype?: string;
  apiErrorStatus?: number;
  numTurns?: number;
  errors: string[];
  text: string;
  permissionDenials: PermissionDenial[];
  rateLimit?: RateLimitInfo;
  apiRetries: number;
  toolUseCount: number;
  lastToolName?: string;
  inputTokens?: number;
  outputTokens?: number;
}

export function expectedFromFile(stdout: string): Expected {
  const trimmed = stdout.trim();
  const none: Expected = { format: 'empty', hasResult: false, errors: [], text: '', permissionDenials: [], apiRetries: 0, toolUseCount: 0 };
  if (trimmed === '') return none;
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return { ...none, format: 'text', text: stdout };
  let messages: unknown[];
  let format: OutputFormat;
  if (trimmed.startsWith('[')) {
    const parsed: unknown = JSON.parse(trimmed);
    messages = Array.isArray(parsed) ? parsed : [];
    format = 'json-array';
  } else {
    const lines = trimmed.split('\n').filter((l) => l.trim() !== '');
    messages = lines.map((l): unknown => JSON.parse(l));
    format = lines.length > 1 ? 'stream-json' : 'json';
  }
  const objects = messages.filter(isObj);
  const result = [...objects].reverse().find((m) => m['type'] === 'result');
  const init = objects.find((m) => m['type'] === 'system' && m['subtype'] === 'init');
  const out: Expected = { ...none, format, hasResult: result !== undefined };

  let lastText: string | undefined;
  for (const m of objects) {
    if (m['type'] === 'system' && m['subtype'] === 'api_retry') out.apiRetries += 1;
    if (m['type'] === 'rate_limit_event' && isObj(m['rate_limit_info'])) {
      const info = m['rate_limit_info'];
      const rl: RateLimitInfo = {};
      const status = str(info['status']);
      const resetsAt = num(info['resetsAt']);
      const type = str(info['rateLimitType']);
      if (status !== undefined) rl.status = status;
      if (resetsAt !== undefined) rl.resetsAt = resetsAt;
      if (type !== undefined) rl.type = type;
      out.rateLimit = rl;
    }
    if (m['type'] === 'assistant' && isObj(m['message']) && Array.isArray(m['message']['content'])) {
      for (const block of m['message']['content']) {
        if (!isObj(block)) continue;
        if (block['type'] === 'text' && typeof block['text'] === 'string' && block['text'] !== '') lastText = block['text'];
        if (block['type'] === 'tool_use') {
          out.toolUseCount += 1;
          out.lastToolName = str(block['name']);
        }
      }
    }
  }

  const sessionId = str(result?.['session_id']) ?? str(init?.['session_id']);
  if (sessionId !== undefined) out.sessionId = sessionId;
  if (result) {
    const set = <K extends keyof Expected>(key: K, value: Expected[K] | undefined): void => {
      if (value !== undefined) out[key] = value;
    };
    set('costUsd', num(result['total_cost_usd']));
    set('isError', typeof result['is_error'] === 'boolean' ? result['is_error'] : undefined);
    set('subtype', str(result['subtype']));
    set('apiErrorStatus', num(result['api_error_status']));
    set('numTurns', num(result['num_turns']));
    if (Array.isArray(result['errors'])) out.errors = result['errors'].filter((e): e is string => typeof e === 'string');
    out.text = str(result['result']) ?? '';
    const denials = Array.isArray(result['permission_denials']) ? result['permission_denials'].filter(isObj) : [];
    out.permissionDenials = denials.map((d) => {
      const tool = str(d['tool_name']) ?? 'unknown';
      const input = d['tool_input'];
      if (tool === 'Bash' && isObj(input) && typeof input['command'] === 'string') {
        return { tool, detail: (input['command'].trim().split('\n')[0] ?? '').slice(0, 200) };
      }
      return { tool };
    });
    const usage = result['usage'];
    if (isObj(usage)) {
      set('inputTokens', num(usage['input_tokens']));
      set('outputTokens', num(usage['output_tokens']));
    }
  } else {
    out.text = lastText ?? '';
  }
  return out;
}

export function chunked(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
