// Captures one call of the real Claude Code CLI as a fixture for the tests: its stdout, stderr
// and the request facts, in the layout of tests/fixtures/claude-cli (manifest.json).
//
//   npm run build
//   node scripts/record-claude-call.mjs --dir tests/fixtures/claude-cli/v2.2.0 --name json-success \
//     --about 'success with tool use' [--live] [--allowed-tools Write,Bash(git*)] [--resume ID] -- 'PROMPT'
//
// Run it in a scratch repository: the agent really acts there.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ClaudeBackend } from '../dist/backends/claude/claude-backend.js';
import { RecordingBackend } from '../dist/backends/recording-backend.js';
import { systemClock } from '../dist/infra/system-clock.js';
import { createLogger } from '../dist/ui/logger.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    dir: { type: 'string' },
    name: { type: 'string' },
    about: { type: 'string', default: '' },
    live: { type: 'boolean', default: false },
    'allowed-tools': { type: 'string', default: '' },
    resume: { type: 'string' },
    command: { type: 'string', default: 'claude' },
  },
});
const prompt = positionals.join(' ');
if (!values.dir || !values.name || prompt === '') {
  process.stderr.write('usage: record-claude-call.mjs --dir DIR --name NAME [--about TEXT] [--live] [--allowed-tools LIST] [--resume ID] -- PROMPT\n');
  process.exit(2);
}
const logger = createLogger({ clock: systemClock, verbose: true });
const claude = new ClaudeBackend({
  command: values.command.split(' '),
  model: '',
  effort: '',
  outputFormat: 'json',
  allowedTools: values['allowed-tools'].split(',').filter(Boolean),
  env: process.env,
  logger,
});
const recorder = new RecordingBackend(claude, { dir: resolve(values.dir), name: values.name, about: values.about });
const cwd = process.cwd();
const result = await recorder.run(
  {
    loop: 1,
    cwd,
    prompt,
    loopContext: '',
    timeoutMs: 10 * 60_000,
    outputLogPath: resolve(cwd, `${values.name}.log`),
    live: values.live,
    ...(values.resume ? { resumeSessionId: values.resume } : {}),
  },
  new AbortController().signal,
);
process.stderr.write(`${values.name}: ${result.outcome.kind} (exit ${result.exitCode ?? 'none'}), recorded in ${values.dir}\n`);
