/**
 * Where the user's Ralph files sit in a project, relative to its root: the
 * names messages and the config show. paths.ts turns them into absolute
 * paths; the loop's own state files are listed there.
 */
export const PROJECT_FILES = {
  dir: '.ralph',
  prompt: '.ralph/PROMPT.md',
  fixPlan: '.ralph/fix_plan.md',
  agent: '.ralph/AGENT.md',
  specs: '.ralph/specs',
  logsDir: '.ralph/logs',
  ralphrc: '.ralphrc',
  mockScript: '.ralph/mock_responses.json',
} as const;
