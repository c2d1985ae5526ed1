// The sandbox session against the real runtime: a contained command's own exit code, a
// contained command killed before its end (its wrapper may still say 0), and refusals told per
// command.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Refusal } from '../../../src/core/sandbox-refusals.js';
import { start } from '../../../src/infra/process.js';
import { openSandboxSession, type SandboxSession } from '../../../src/infra/sandbox/sandbox-session.js';
import { bwrapUnavailable } from '../../helpers/sandbox-world.js';
import { tempDir } from '../../helpers/temp-dir.js';
import { skipNote } from '../../helpers/skip-note.js';

const unavailable = skipNote('the sandbox tests', bwrapUnavailable());
let session: SandboxSession | undefined;

afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function open(onRefusal?: (refusal: Refusal, role: string) => void): Promise<{ project: string; outside: string; session: SandboxSession }> {
  const base = tempDir('ralph-sandbox-session-');
  const project = join(base, 'project');
  const outside = join(base, 'outside');
  mkdirSync(project);
  mkdirSync(outside);
  session = await openSandboxSession({
    project,
    policy: { tmpDir: project, agentDirs: [], allowWrite: [project], denyWrite: [], denyRead: [], allowedDomains: [], localApi: false },
    env: process.env,
    say: () => undefined,
    ...(onRefusal ? { onRefusal } : {}),
  });
  return { project, outside, session };
}

describe.skipIf(unavailable !== undefined)(`sandbox session${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it("reports the contained command's own exit code, not its wrapper's", async () => {
    const { project, session: s } = await open();
    const outcome = await start('sh', ['-c', 'echo out; exit 3'], { cwd: project, env: process.env, contain: s });
    expect(outcome).toMatchObject({ end: 'exited', exitCode: 3 });
    expect(outcome.stdoutTail).toBe('out\n');
    const ok = await start('true', [], { cwd: project, env: process.env, contain: s });
    expect(ok).toMatchObject({ end: 'exited', exitCode: 0 });
  });

  it("gives the command the TMPDIR it was started with when the policy's temp dir holds it, else the policy's", async () => {
    const { project, outside, session: s } = await open();
    const callTmp = join(project, 'call-tmp');
    mkdirSync(callTmp);
    const inside = await start('sh', ['-c', 'printf %s "$TMPDIR"'], { cwd: project, env: { ...process.env, TMPDIR: callTmp }, contain: s });
    expect(inside.stdoutTail).toBe(callTmp);
    const elsewhere = await start('sh', ['-c', 'printf %s "$TMPDIR"'], { cwd: project, env: { ...process.env, TMPDIR: outside }, contain: s });
    expect(elsewhere.stdoutTail).toBe(project);
  });

  it('passes a long argument full of quotes through unchanged (quoted once, in a script, not thrice on a command line)', async () => {
    const { project, session: s } = await open();
    const prompt = "it's ".repeat(12_000);
    const outcome = await start('sh', ['-c', 'printf %s "$1" | wc -c', 'sh', prompt], { cwd: project, env: process.env, contain: s });
    expect(outcome).toMatchObject({ end: 'exited', exitCode: 0 });
    expect(outcome.stdoutTail.trim()).toBe(String(prompt.length));
  });

  it('a contained command killed before its end is no success, whatever its wrapper exits with', async () => {
    const { project, session: s } = await open();
    // The shell that runs the command inside the sandbox is killed: the command never ends by itself.
    const contained = await s.contain('sh', ['-c', 'kill -9 $PPID; sleep 5'], 'agent');
    const wrapper = await start(contained.file, contained.args, { cwd: project, env: process.env, reportPipe: contained.reportPipe === true });
    expect(wrapper.end).toBe('exited');
    const settled = contained.settle(wrapper);
    expect(settled.exitCode).toBeUndefined();
    expect(settled.signal).toBe('SIGKILL');
  });

  it('tells each refusal with the role of the command that was refused, and counts them for the run', async () => {
    const told: Array<[string, string]> = [];
    const { project, outside, session: s } = await open((refusal, role) => told.push([role, refusal.kind]));
    const outcome = await start('sh', ['-c', `echo x > ${outside}/no.txt; echo y > ${project}/yes.txt`], {
      cwd: project,
      env: process.env,
      role: 'verify',
      contain: s,
    });
    expect(outcome.exitCode).toBe(0);
    expect(outcome.refusals?.map((r) => r.kind)).toEqual(['write']);
    expect(outcome.refusals?.[0]?.detail).toContain(`${outside}/no.txt`);
    expect(told).toEqual([['verify', 'write']]);
    expect(s.tally.total()).toBe(1);
  });

  it("keeps Ralph's own script files out of the contained command's reach: no link planted there is followed", async () => {
    // Ralph's folder for the run is made in the system temp dir, which a contained command lists.
    const base = tempDir('ralph-sandbox-own-');
    const savedTmp = process.env['TMPDIR'];
    process.env['TMPDIR'] = base;
    let opened: Awaited<ReturnType<typeof open>>;
    try {
      opened = await open();
    } finally {
      if (savedTmp === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = savedTmp;
    }
    const { project, outside, session: s } = opened;
    const precious = join(outside, 'bashrc');
    writeFileSync(precious, 'the user file\n');
    // Ralph's own folder, not the test's world (whose temp folder lies in the same TMPDIR).
    const [own] = readdirSync(base).filter((name) => name.startsWith('ralph-sandbox-') && !project.startsWith(`${join(base, name)}/`));
    expect(own).toBeDefined();
    const dir = join(base, own ?? '');
    // As an attacker would: a link at every name Ralph may write next, to a file of the user's.
    const plant = await start(
      'sh',
      ['-c', `for n in 1 2 3 4 5 6 7 8 9 10; do ln -s "$1" "$2/$n.sh" && ln -s "$1" "$2/$n.status" && echo planted; done; exit 0`, 'sh', precious, dir],
      { cwd: project, env: process.env, contain: s },
    );
    expect(plant).toMatchObject({ end: 'exited', exitCode: 0 });
    expect(plant.stdoutTail).not.toContain('planted');
    expect(plant.refusals?.some((r) => r.kind === 'write')).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
    // The next commands run as usual, and the user's file is as it was.
    const next = await start('sh', ['-c', 'exit 4'], { cwd: project, env: process.env, contain: s });
    expect(next).toMatchObject({ end: 'exited', exitCode: 4 });
    const after = await start('true', [], { cwd: project, env: process.env, contain: s });
    expect(after).toMatchObject({ end: 'exited', exitCode: 0 });
    expect(readFileSync(precious, 'utf8')).toBe('the user file\n');
  });

  it('takes the status from its wrapper alone: the descriptor it comes on is closed to the command', async () => {
    const { project, session: s } = await open();
    // Whatever the command writes on descriptor 3 it could not: the descriptor is closed for it.
    const outcome = await start('sh', ['-c', 'printf 0 >&3; exit 5'], { cwd: project, env: process.env, contain: s });
    expect(outcome).toMatchObject({ end: 'exited', exitCode: 5 });
  });
});
