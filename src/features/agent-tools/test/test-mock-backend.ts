import { join } from 'node:path';
import { parseMockScript } from '../../../backends/mock/mock-script.js';
import { writeJsonAtomic } from '../../../state/json-file.js';
import { badInput } from './tool-error.js';
import type { ToolContext } from './tool-home.js';
import { requireWorkspace, touchWorkspace } from './workspace.js';
import { PROJECT_FILES } from '../../../core/project-layout.js';

/**
 * test_mock_backend: the responses go to
 * `.ralph/mock_responses.json` with the script's snake_case field names, after the mock
 * backend's own parser has accepted them, so a bad script fails here and not
 * halfway through a run.
 */

export const MOCK_SCRIPT = PROJECT_FILES.mockScript;

export const HAT_NOTE = 'hat is accepted and ignored: Ralph runs one agent role, so a response is used whatever hat it names';

export interface MockBackendInput {
  workspace_id: string;
  responses: Array<Record<string, unknown>>;
}

export interface MockBackendResult {
  configured: true;
  response_count: number;
  notes?: string[];
}

/** Validates and writes a mock script into a workspace; returns notes for the caller. */
export function writeMockResponses(workspace: string, responses: ReadonlyArray<Record<string, unknown>>): string[] {
  const parsed = parseMockScript({ responses });
  if (!parsed.ok) throw badInput(`invalid mock responses:\n  ${parsed.errors.join('\n  ')}`, { problems: parsed.errors });
  writeJsonAtomic(join(workspace, MOCK_SCRIPT), { responses });
  return responses.some((r) => r['hat'] !== undefined) ? [HAT_NOTE] : [];
}

export async function testMockBackend(input: MockBackendInput, ctx: ToolContext): Promise<MockBackendResult> {
  const { entry } = requireWorkspace(ctx, input.workspace_id);
  const notes = writeMockResponses(entry.path, input.responses);
  await touchWorkspace(ctx, input.workspace_id);
  return { configured: true, response_count: input.responses.length, ...(notes.length > 0 ? { notes } : {}) };
}
