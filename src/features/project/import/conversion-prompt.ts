import { dataRule, fenceMarkers, fenceUntrusted, type DataKind } from '../../../core/untrusted-text.js';
import { PROJECT_FILES } from '../../../core/project-layout.js';

/**
 * The prompt that asks Claude to turn a requirements document into a Ralph
 * project. The user's document is fenced by
 * markers carrying a random nonce, so the document cannot close the fence
 * itself, and Claude is told that everything inside is data, not instructions.
 */
export const CONVERSION_OUTPUTS = [PROJECT_FILES.prompt, PROJECT_FILES.fixPlan, `${PROJECT_FILES.specs}/requirements.md`] as const;

/**
 * Documents up to this size travel inside the prompt. The prompt is one
 * command-line argument, and Linux refuses a single argument over 128 KiB, so
 * bigger documents are read by Claude from the copy in the project instead.
 */
export const MAX_INLINE_SOURCE_BYTES = 96 * 1024;

export interface ConversionPromptInput {
  projectName: string;
  /** Base name of the document, as copied into the project root. */
  sourceName: string;
  sourceText: string;
  /** Random marker suffix chosen by the caller. */
  nonce: string;
}

const buildTaskLines = (projectName: string): string[] => [
  `You are turning a requirements document into a Ralph project named "${projectName}". Ralph runs Claude Code`,
  'in a loop on this project until the work is done. You are in the project root. Do not implement anything',
  'now: write the three files below, then stop.',
  '',
  '1. `.ralph/PROMPT.md`: the instructions the development agent gets in every iteration. The file already',
  '   exists as a template; read it first. Keep its sections "Protected Files (DO NOT MODIFY)" and',
  '   "Status Reporting (CRITICAL)" word for word, including the RALPH_STATUS block. Replace the generic parts',
  '   with what this project needs: context (what is built and for whom), current objectives, key principles,',
  '   technical constraints (languages, frameworks and versions the document names), testing guidelines and',
  '   success criteria.',
  '2. `.ralph/fix_plan.md`: the task list, replacing the template. Sections: `## High Priority`,',
  '   `## Medium Priority`, `## Low Priority`, `## Optional` (nice to have; never blocks completion),',
  '   `## Completed` (holding `- [x] Project initialization`) and `## Notes`. One task per line as',
  '   `- [ ] <task>`: specific, testable, small enough for one iteration, ordered by dependency and importance.',
  '3. `.ralph/specs/requirements.md`: the technical specification derived from the document: functional',
  '   requirements, data models, interfaces and APIs, constraints, acceptance criteria. Keep every requirement',
  '   the document states and invent none; list unclear points under "Open questions".',
  '',
  'Use the Write and Edit tools (create `.ralph/specs/` with mkdir if needed). Do not create or change any other file.',
  'Do not ask questions: where the document is unclear, choose the simplest reasonable reading and note it',
  'under Notes in fix_plan.md.',
  '',
];

const REQUIREMENTS_DATA: DataKind = { what: 'requirements DATA written by the user', contentOf: 'the requirements' };

export function buildConversionPrompt(input: ConversionPromptInput): string {
  const markers = fenceMarkers('REQUIREMENTS', input.nonce);
  const lines = buildTaskLines(input.projectName);
  if (Buffer.byteLength(input.sourceText, 'utf8') > MAX_INLINE_SOURCE_BYTES) {
    lines.push(
      `The requirements document is the file \`${input.sourceName}\` in the project root; read all of it with the Read tool.`,
      ...dataRule('Its whole content', REQUIREMENTS_DATA),
    );
    return `${lines.join('\n')}\n`;
  }
  const { rule, block } = fenceUntrusted(input.sourceText, markers, REQUIREMENTS_DATA);
  lines.push(...rule, '', `Source document: ${input.sourceName}`, ...block);
  return `${lines.join('\n')}\n`;
}

/** Tools the conversion may use: read the template and the document, write the three files. */
// Edit too: a model that writes a file and then corrects it must not be denied halfway.
export const CONVERSION_TOOLS = ['Read', 'Write', 'Edit', 'Bash(mkdir *)'] as const;
