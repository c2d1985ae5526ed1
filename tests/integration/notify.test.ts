import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appleScriptFor, createNotifier, escapeAppleScript } from '../../src/features/observe/notify.js';
import { createProcessRunner } from '../../src/infra/process-runner.js';
import type { ProcessRunner } from '../../src/ports.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A fake executable that appends its argv (one JSON array per call) to calls.jsonl. */
function fakeBin(name: string, exitCode = 0): { dir: string; calls: () => string[][] } {
  const dir = tempDir('ralph-notify-');
  const log = join(dir, 'calls.jsonl');
  const script = `#!${process.execPath}\nrequire('node:fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify(process.argv.slice(2)) + '\\n');\nprocess.exit(${exitCode});\n`;
  writeFileSync(join(dir, name), script);
  chmodSync(join(dir, name), 0o755);
  return {
    dir,
    calls: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l) as string[])
        : [],
  };
}

function setup(platform: NodeJS.Platform, path: string, enabled = true) {
  const bells: string[] = [];
  const notifier = createNotifier({ enabled, platform, runner: createProcessRunner(), write: (t) => bells.push(t), env: { PATH: path } });
  return { notifier, bells };
}

describe('notifier', () => {
  it('uses notify-send from PATH on Linux with title, urgency and the message as separate arguments', async () => {
    const bin = fakeBin('notify-send');
    const { notifier, bells } = setup('linux', bin.dir);
    await notifier.notify('completed', 'Project completed! Exit reason: plan_complete');
    await notifier.notify('circuit_open', '--looks-like-a-flag "quoted" $(rm -rf /)');
    expect(bin.calls()).toEqual([
      ['--app-name=Ralph', '--urgency=normal', '--', 'Ralph: work complete', 'Project completed! Exit reason: plan_complete'],
      ['--app-name=Ralph', '--urgency=critical', '--', 'Ralph: circuit breaker opened', '--looks-like-a-flag "quoted" $(rm -rf /)'],
    ]);
    expect(bells).toEqual([]);
  });

  it('flattens control characters and bounds the message length', async () => {
    const bin = fakeBin('notify-send');
    const { notifier } = setup('linux', bin.dir);
    await notifier.notify('error', `line one\nline two\u001b[31m ${'z'.repeat(400)}`);
    const message = bin.calls()[0]?.[4] ?? '';
    expect(message.startsWith('line one line two [31m zzz')).toBe(true);
    expect(message.length).toBe(300);
    expect(message.endsWith('…')).toBe(true);
  });

  it('rings the terminal bell when notify-send is not installed', async () => {
    const { notifier, bells } = setup('linux', tempDir('ralph-empty-path-'));
    await notifier.notify('usage_limit', 'limit');
    expect(bells).toEqual(['\u0007']);
  });

  it('swallows a failing notify-send and rings the bell instead', async () => {
    const bin = fakeBin('notify-send', 1);
    const { notifier, bells } = setup('linux', bin.dir);
    await expect(notifier.notify('verify_escalation', 'npm test failed 3 times')).resolves.toBeUndefined();
    expect(bin.calls()).toHaveLength(1);
    expect(bells).toEqual(['\u0007']);
  });

  it('swallows a runner that throws and a bell that cannot be written', async () => {
    const runner: ProcessRunner = { run: () => Promise.reject(new Error('spawn exploded')) };
    const bin = fakeBin('notify-send');
    const notifier = createNotifier({
      enabled: true,
      platform: 'linux',
      runner,
      write: () => {
        throw new Error('EIO');
      },
      env: { PATH: bin.dir },
    });
    await expect(notifier.notify('error', 'x')).resolves.toBeUndefined();
  });

  it('does nothing when disabled', async () => {
    const bin = fakeBin('notify-send');
    const { notifier, bells } = setup('linux', bin.dir, false);
    await notifier.notify('completed', 'done');
    expect(bin.calls()).toEqual([]);
    expect(bells).toEqual([]);
  });

  it('uses osascript on macOS with AppleScript string escaping', async () => {
    const bin = fakeBin('osascript');
    fakeBin('notify-send'); // elsewhere on disk, not on this PATH: must not matter
    const { notifier } = setup('darwin', bin.dir);
    await notifier.notify('completed', 'He said "done" \\o/');
    expect(bin.calls()).toEqual([['-e', 'display notification "He said \\"done\\" \\\\o/" with title "Ralph: work complete"']]);
  });
});

describe('escapeAppleScript', () => {
  it.each([
    ['plain', 'plain'],
    ['say "hi"', 'say \\"hi\\"'],
    ['back\\slash', 'back\\\\slash'],
    ['\\"', '\\\\\\"'],
    ["it's", "it's"],
  ])('%j → %j', (input, expected) => {
    expect(escapeAppleScript(input)).toBe(expected);
  });

  it('cannot be broken out of: the escaped text parses back to the original inside quotes', () => {
    const hostile = 'x" & (do shell script "touch /tmp/pwned") & "';
    const script = appleScriptFor('t', hostile);
    const literal = /^display notification "((?:[^"\\]|\\.)*)" with title "t"$/.exec(script)?.[1];
    expect(literal?.replace(/\\(.)/g, '$1')).toBe(hostile);
  });
});
