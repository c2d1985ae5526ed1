import { describe, expect, it } from 'vitest';
import { isStuckLoop } from '../../../src/core/response-analyzer.js';
import { analyze, cliResult, noProgress, statusBlock } from '../support/analysis.js';
import { fixture } from '../backends/claude/claude-fixtures.js';

describe('analyzeResponse: EXIT_SIGNAL and STATUS (spec §4–§5)', () => {
  it('an explicit EXIT_SIGNAL: false stays false even with STATUS: COMPLETE (#146)', () => {
    const a = analyze(cliResult(`Task done.\n${statusBlock({ STATUS: 'COMPLETE', TESTS_STATUS: 'PASSING', EXIT_SIGNAL: 'false' })}`));
    expect(a.mode).toBe('json');
    expect(a.status).toBe('COMPLETE');
    expect(a.exitSignal).toBe(false);
    expect(a.exitSignalExplicit).toBe(true);
  });

  it('STATUS: COMPLETE without EXIT_SIGNAL is an implicit exit signal, TESTS_STATUS notwithstanding', () => {
    const a = analyze(cliResult(`All done.\n${statusBlock({ STATUS: 'COMPLETE', TESTS_STATUS: 'PASSING', WORK_TYPE: 'IMPLEMENTATION' })}`));
    expect(a.exitSignal).toBe(true);
    expect(a.exitSignalExplicit).toBe(false);
    expect(a.hasCompletionSignal).toBe(true);
    expect(a.testsStatus).toBe('PASSING');
  });

  it('EXIT_SIGNAL: true is explicit and gives full confidence', () => {
    const a = analyze(cliResult(statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })));
    expect(a).toMatchObject({ exitSignal: true, exitSignalExplicit: true, hasCompletionSignal: true, confidenceScore: 100 });
  });

  it('STATUS: IN_PROGRESS without EXIT_SIGNAL is no exit signal', () => {
    const a = analyze(cliResult(statusBlock({ STATUS: 'IN_PROGRESS' })));
    expect(a).toMatchObject({ exitSignal: false, exitSignalExplicit: false, hasCompletionSignal: false, status: 'IN_PROGRESS' });
  });

  it('reads WORK_TYPE, FILES_MODIFIED, TASKS_COMPLETED_THIS_LOOP and RECOMMENDATION in JSON mode', () => {
    const a = analyze(
      cliResult(
        statusBlock({
          STATUS: 'IN_PROGRESS',
          TASKS_COMPLETED_THIS_LOOP: '2',
          FILES_MODIFIED: '3',
          WORK_TYPE: 'REFACTORING',
          EXIT_SIGNAL: 'false',
          RECOMMENDATION: 'Next: docs',
        }),
      ),
      { progress: { method: 'none', filesChanged: 0, changedFiles: [], committed: false, tasksChecked: 0 } },
    );
    expect(a).toMatchObject({ workType: 'REFACTORING', filesModified: 3, tasksCompleted: 2, recommendation: 'Next: docs' });
  });

  it('the recorded success fixture: IN_PROGRESS, EXIT_SIGNAL false, one file, implementation', () => {
    const a = analyze(fixture('json-success-tool-use.json').stdout);
    expect(a.mode).toBe('json');
    expect(a.exitSignal).toBe(false);
    expect(a.exitSignalExplicit).toBe(true);
    expect(a.workType).toBe('IMPLEMENTATION');
    expect(a.progressSources).toContain('files_modified');
  });
});

describe('analyzeResponse: JSON mode ignores prose heuristics (#224)', () => {
  it.each(['All done, the project is complete.', 'Done!', 'Nothing to do, everything is up to date.', 'Ready for review.'])(
    '%j without a block is no completion',
    (text) => {
      const a = analyze(cliResult(text));
      expect(a.mode).toBe('json');
      expect(a.exitSignal).toBe(false);
      expect(a.hasCompletionSignal).toBe(false);
      expect(a.completionPhrase).toBeUndefined();
    },
  );

  it('prose test commands do not make a JSON answer test-only', () => {
    expect(analyze(cliResult('Running tests\nnpm test: 10 passing')).isTestOnly).toBe(false);
  });

  // Regression: earlier, a stream-json (or --verbose array) output that ends without its result line — an agent
  // killed on timeout, whose productive work is still analyzed — is read in text mode, so the
  // last assistant text's "All tasks complete" becomes a completion signal (and "npm test" a
  // test-only iteration). The agent was asked for JSON: spec §4/§5 and the original (#224,
  // U§4.4) never apply prose heuristics to JSON-format output; only a RALPH_STATUS block counts.
  it('a stream-json output cut before its result line is not read with prose heuristics', () => {
    const stream = [
      { type: 'system', subtype: 'init', session_id: 'init-1' },
      { type: 'assistant', message: { content: [{ type: 'text', text: 'All tasks complete. Running tests now: npm test' }] } },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const a = analyze(`${stream}\n`);
    expect(a.hasCompletionSignal).toBe(false);
    expect(a.completionPhrase).toBeUndefined();
    expect(a.isTestOnly).toBe(false);
  });

  it('a stream-json output cut before its result line still honours a status block in the last text', () => {
    const stream = [
      { type: 'system', subtype: 'init', session_id: 'init-1' },
      { type: 'assistant', message: { content: [{ type: 'text', text: `Partial.\n${statusBlock({ EXIT_SIGNAL: 'false', FILES_MODIFIED: '1' })}` }] } },
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const a = analyze(stream, { progress: { ...noProgress(), method: 'none' } });
    expect(a.exitSignal).toBe(false);
    expect(a.exitSignalExplicit).toBe(true);
    expect(a.filesModified).toBe(1);
  });
});

describe('analyzeResponse: text mode', () => {
  it.each([
    ['All tasks complete.', 'all tasks complete'],
    ['The project is finished.', 'finished'],
    ['Nothing to do here.', 'nothing to do'],
  ])('%j is a completion signal (%s) but not an exit signal', (text, phrase) => {
    const a = analyze(text);
    expect(a.mode).toBe('text');
    expect(a.hasCompletionSignal).toBe(true);
    expect(a.completionPhrase).toBe(phrase);
    expect(a.exitSignal).toBe(false);
  });

  it.each(['The work is incomplete.', 'I abandoned the old approach.', 'I completed step one.', 'Not yet complete.'])('%j is no completion signal', (text) => {
    expect(analyze(text).hasCompletionSignal).toBe(false);
  });

  it('an explicit EXIT_SIGNAL: false in text mode overrides completion words', () => {
    const a = analyze(`Everything is done.\n${statusBlock({ EXIT_SIGNAL: 'false' })}`);
    expect(a.hasCompletionSignal).toBe(false);
    expect(a.completionPhrase).toBeUndefined();
    expect(a.exitSignal).toBe(false);
  });

  it('words inside the status block are not prose', () => {
    const a = analyze(statusBlock({ STATUS: 'IN_PROGRESS', RECOMMENDATION: 'Should I mark it done once tests pass?' }));
    expect(a.hasCompletionSignal).toBe(false);
    expect(a.askingQuestions).toBe(false);
    expect(a.recommendation).toBe('Should I mark it done once tests pass?');
  });

  it('test-only output is detected by the text heuristic', () => {
    expect(analyze('Running tests\nnpm test\n42 passing').isTestOnly).toBe(true);
    expect(analyze('Implemented the parser\nnpm test').isTestOnly).toBe(false);
  });

  it('malformed JSON falls back to text analysis of the raw output', () => {
    const a = analyze(`{"type":"result","result":"x", broken\n${statusBlock({ STATUS: 'COMPLETE', EXIT_SIGNAL: 'true' })}`);
    expect(a.mode).toBe('text');
    expect(a.exitSignal).toBe(true);
    expect(a.warnings.some((w) => w.includes('not valid JSON'))).toBe(true);
  });

  it('empty output is analyzed as text without signals', () => {
    const a = analyze('');
    expect(a).toMatchObject({ mode: 'text', exitSignal: false, hasCompletionSignal: false, hasProgress: false, outputLength: 0 });
  });
});

describe('analyzeResponse: test-only from the status block', () => {
  it.each(['TESTING', 'TEST_ONLY', 'testing'])('WORK_TYPE: %s is test-only', (workType) => {
    expect(analyze(cliResult(statusBlock({ WORK_TYPE: workType }))).isTestOnly).toBe(true);
  });

  it('WORK_TYPE: IMPLEMENTATION is not, even in text mode with test words', () => {
    expect(analyze(`npm test\n${statusBlock({ WORK_TYPE: 'IMPLEMENTATION' })}`).isTestOnly).toBe(false);
  });

  it('the flat format work_type TEST_ONLY is test-only', () => {
    expect(analyze(JSON.stringify({ status: 'IN_PROGRESS', exit_signal: false, work_type: 'TEST_ONLY' })).isTestOnly).toBe(true);
  });
});

describe('analyzeResponse: progress sources', () => {
  const BASE = cliResult('Worked.');

  it('no evidence → no progress', () => {
    const a = analyze(BASE);
    expect(a.hasProgress).toBe(false);
    expect(a.progressSources).toEqual([]);
    expect(a.filesModified).toBe(0);
  });

  it.each([
    ['git files', { progress: { ...noProgress(), filesChanged: 3, changedFiles: ['a', 'b', 'c'] } }, BASE, ['git'], 3],
    ['mtime files outside git', { progress: { ...noProgress(), method: 'files' as const, filesChanged: 2 } }, BASE, ['files'], 2],
    ['fix_plan ticks', { progress: { ...noProgress(), tasksChecked: 1 } }, BASE, ['fix_plan'], 0],
    ['FILES_MODIFIED', {}, cliResult(statusBlock({ FILES_MODIFIED: '4' })), ['files_modified'], 0],
    ['TASKS_COMPLETED_THIS_LOOP', {}, cliResult(statusBlock({ TASKS_COMPLETED_THIS_LOOP: '1' })), ['tasks_completed'], 0],
  ])('%s count as progress', (_name, ctx, stdout, sources, files) => {
    const a = analyze(stdout, ctx);
    expect(a.hasProgress).toBe(true);
    expect(a.progressSources).toEqual(sources);
    expect(a.filesModified).toBe(files);
  });

  it('lists every source that applies', () => {
    const a = analyze(cliResult(statusBlock({ FILES_MODIFIED: '2', TASKS_COMPLETED_THIS_LOOP: '1' })), {
      progress: { ...noProgress(), filesChanged: 2, tasksChecked: 1 },
    });
    expect(a.progressSources).toEqual(['git', 'fix_plan', 'files_modified', 'tasks_completed']);
  });

  it('without a way to measure files, the self-reported count is used', () => {
    const a = analyze(cliResult(statusBlock({ FILES_MODIFIED: '5' })), { progress: { ...noProgress(), method: 'none' } });
    expect(a.filesModified).toBe(5);
  });

  it('FILES_MODIFIED: 0 and TASKS_COMPLETED_THIS_LOOP: 0 are not progress', () => {
    expect(analyze(cliResult(statusBlock({ FILES_MODIFIED: '0', TASKS_COMPLETED_THIS_LOOP: '0' }))).hasProgress).toBe(false);
  });
});

describe('analyzeResponse: permission denials', () => {
  const denied = fixture('json-permission-denied.json').stdout;

  it('a denied command outside ALLOWED_TOOLS is a real denial', () => {
    const a = analyze(denied, { allowedTools: ['Write', 'Bash(git *)'] });
    expect(a).toMatchObject({
      hasPermissionDenials: true,
      permissionDenialCount: 1,
      deniedCommands: ['Bash(npm test)'],
      hasCompoundCommandLimitation: false,
      compoundCommandCount: 0,
    });
  });

  it('a denied command whose base is allowed is the compound-command limitation, not a denial', () => {
    const a = analyze(denied, { allowedTools: ['Write', 'Bash(npm *)'] });
    expect(a).toMatchObject({
      hasPermissionDenials: false,
      permissionDenialCount: 0,
      hasCompoundCommandLimitation: true,
      compoundCommandCount: 1,
      deniedCommands: ['Bash(npm test)'],
    });
  });

  it('no denials, no flags', () => {
    expect(analyze(cliResult('ok'))).toMatchObject({
      hasPermissionDenials: false,
      permissionDenialCount: 0,
      deniedCommands: [],
      hasCompoundCommandLimitation: false,
    });
  });
});

describe('analyzeResponse: questions, errors, summary', () => {
  it('detects questions in the prose', () => {
    const a = analyze(cliResult('Should I use Postgres or SQLite? Which approach do you prefer?'));
    expect(a.askingQuestions).toBe(true);
    expect(a.questionCount).toBe(3);
  });

  it('collects error lines of the final message', () => {
    const a = analyze(cliResult('Tried to build.\nError: Cannot find module "x"\n"is_error": false'));
    expect(a.errorLines).toEqual(['Error: Cannot find module "x"']);
    expect(a.errorCount).toBe(1);
  });

  it('an is_error result adds the agent error as an error line', () => {
    const a = analyze(fixture('json-error-server-500.json').stdout);
    expect(a.errorLines.some((l) => l.startsWith('agent error: '))).toBe(true);
    expect(a.errorCount).toBeGreaterThanOrEqual(1);
  });

  it('an is_error result without result text uses errors[] for the agent error', () => {
    const a = analyze(fixture('json-max-turns.json').stdout);
    expect(a.errorLines).toHaveLength(1);
    expect(a.errorLines[0]).toMatch(/^agent error: ./);
  });

  it('summarizes the prose', () => {
    expect(analyze(cliResult('Looked around.\nImplemented the tokenizer.\n' + statusBlock({ EXIT_SIGNAL: 'false' }))).workSummary).toBe(
      'Implemented the tokenizer.',
    );
  });

  it('falls back to a fixed summary when there is no prose', () => {
    expect(analyze(cliResult(statusBlock({ EXIT_SIGNAL: 'false' }))).workSummary).toBe('Output analyzed, no explicit summary found');
  });

  it('reports the length of the final message', () => {
    expect(analyze(cliResult('12345')).outputLength).toBe(5);
  });
});

describe('analyzeResponse: the flat Ralph format and CLI metadata', () => {
  it('flat COMPLETE + exit_signal true is an explicit exit signal', () => {
    const a = analyze(JSON.stringify({ status: 'COMPLETE', exit_signal: true, confidence: 95, summary: 'Finished' }));
    expect(a).toMatchObject({ mode: 'json', exitSignal: true, exitSignalExplicit: true, status: 'COMPLETE' });
    expect(a.confidenceScore).toBeGreaterThanOrEqual(50);
  });

  it('flat IN_PROGRESS + exit_signal false is no exit', () => {
    expect(analyze(JSON.stringify({ status: 'IN_PROGRESS', exit_signal: false })).exitSignal).toBe(false);
  });

  it('metadata.completion_status complete is an implicit exit signal', () => {
    const a = analyze(JSON.stringify({ type: 'result', result: 'Finished', metadata: { completion_status: 'complete' } }));
    expect(a.exitSignal).toBe(true);
    expect(a.exitSignalExplicit).toBe(false);
  });

  it('a block inside a flat format answer beats the flat field', () => {
    const a = analyze(JSON.stringify({ status: 'COMPLETE', exit_signal: true, result: statusBlock({ EXIT_SIGNAL: 'false' }) }));
    expect(a.exitSignal).toBe(false);
  });
});

describe('isStuckLoop (U§13.5 detect_stuck_loop)', () => {
  const E = 'Error: Cannot find module "x"';
  const F = 'TypeError exception in parser';

  it.each([
    ['no history', [E], [], false],
    ['only one previous output', [E], [[E]], false],
    ['no current errors (JSON error fields only)', [], [[E], [E]], false],
    ['the same error in all three', [E], [[E], [E]], true],
    [
      'the same error plus extras before',
      [E],
      [
        [E, F],
        [F, E],
      ],
      true,
    ],
    ['different errors', [E], [[F], [F]], false],
    [
      'several errors, all repeated',
      [E, F],
      [
        [F, E],
        [E, F],
      ],
      true,
    ],
    ['only some repeated', [E, F], [[E], [E, F]], false],
    ['repeated once, not twice', [E], [[E], []], false],
    ['older history beyond two is not needed', [E], [[E], [E], [F]], true],
  ] as const)('%s → %s', (_name, current, previous, stuck) => {
    expect(isStuckLoop(current, previous)).toBe(stuck);
  });

  it('is reported on the analysis', () => {
    const stdout = cliResult(`Build broke.\n${E}`);
    expect(analyze(stdout, { previousErrorLines: [[E], [E]] }).isStuck).toBe(true);
    expect(analyze(stdout, { previousErrorLines: [[F], [E]] }).isStuck).toBe(false);
  });
});
