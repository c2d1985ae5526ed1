import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initialCircuit } from '../../../src/core/circuit-breaker.js';
import { loadDocument, readDocument, saveDocument, updateDocument, type DocumentLock } from '../../../src/state/document-store.js';
import { LOOP_DOCUMENTS } from '../../../src/state/documents.js';
import { CIRCUIT_STATE } from '../../../src/state/documents/circuit.js';
import { RATE_LIMIT } from '../../../src/state/documents/rate-limit.js';
import { STATUS } from '../../../src/state/documents/status.js';
import { VERIFY_GATE } from '../../../src/state/documents/verify-gate.js';
import { loopScratchFiles, ralphPaths, type RalphPaths } from '../../../src/state/paths.js';
import { tempDir } from '../../helpers/temp-dir.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

function project(): RalphPaths {
  const paths = ralphPaths(tempDir('ralph-docs-'));
  mkdirSync(paths.dir, { recursive: true });
  return paths;
}

/** A lock that records when it is held, standing in for the project lock. */
function recordingLock(events: string[]): DocumentLock {
  return async (path) => {
    events.push(`lock ${path.split('/').pop()}`);
    return async () => {
      events.push('release');
    };
  };
}

describe('loadDocument', () => {
  it('gives the empty value for a missing file, without a warning', () => {
    const paths = project();
    const warnings: string[] = [];
    expect(loadDocument(paths, CIRCUIT_STATE, (m) => warnings.push(m), NOW)).toEqual(initialCircuit(NOW));
    expect(loadDocument(paths, VERIFY_GATE, (m) => warnings.push(m))).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it.each([
    ['not JSON', 'not json at all', 'not valid JSON'],
    ['empty', '  \n', 'the file is empty'],
    ['the wrong shape', '[1, 2]', 'not a JSON object'],
  ])('moves a file that is %s aside, says so once and starts empty', (_name, content, reason) => {
    const paths = project();
    writeFileSync(paths.circuitState, content);
    const warnings: string[] = [];
    expect(loadDocument(paths, CIRCUIT_STATE, (m) => warnings.push(m), NOW)).toEqual(initialCircuit(NOW));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^\.circuit_breaker_state was corrupt \(.+\); it was reset and the old content kept in \.circuit_breaker_state\.corrupt$/);
    expect(warnings[0]).toContain(reason);
    expect(readFileSync(`${paths.circuitState}.corrupt`, 'utf8')).toBe(content);
    expect(existsSync(paths.circuitState)).toBe(false);
  });

  it.skipIf(process.getuid?.() === 0)('throws what is not about the content (a file it may not read) and keeps the file', () => {
    const paths = project();
    writeFileSync(paths.rateLimit, '{"calls": []}');
    chmodSync(paths.rateLimit, 0o000);
    expect(() => loadDocument(paths, RATE_LIMIT, () => {})).toThrow(/EACCES/);
    chmodSync(paths.rateLimit, 0o600);
    expect(existsSync(`${paths.rateLimit}.corrupt`)).toBe(false);
  });

  it('throws for a directory where the file should be', () => {
    const paths = project();
    mkdirSync(paths.rateLimit);
    expect(() => loadDocument(paths, RATE_LIMIT, () => {})).toThrow(/rate_limit.* is a directory, not a regular file\./);
  });
});

describe('readDocument', () => {
  it('reports a corrupt file with its reason and leaves it where it is (read-only commands)', () => {
    const paths = project();
    writeFileSync(paths.status, '"running"');
    expect(readDocument(paths, STATUS)).toEqual({ kind: 'corrupt', reason: 'status.json does not contain a JSON object' });
    expect(readFileSync(paths.status, 'utf8')).toBe('"running"');
    expect(readDocument(ralphPaths(tempDir()), STATUS)).toEqual({ kind: 'missing' });
  });
});

describe('saveDocument', () => {
  it('writes pretty JSON that reads back the same, and leaves no temporary file', () => {
    const paths = project();
    const state = { ...initialCircuit(NOW), state: 'OPEN' as const, opened_at: '2026-01-15T12:00:00+00:00' };
    saveDocument(paths, CIRCUIT_STATE, state);
    expect(readFileSync(paths.circuitState, 'utf8')).toBe(`${JSON.stringify(state, null, 2)}\n`);
    expect(loadDocument(paths, CIRCUIT_STATE, () => {}, NOW)).toEqual(state);
    expect(readdirSync(paths.dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('replaces a symbolic link at the file instead of writing where it points', () => {
    const paths = project();
    const outside = join(tempDir('ralph-outside-'), 'victim.txt');
    writeFileSync(outside, 'keep me');
    symlinkSync(outside, paths.rateLimit);
    saveDocument(paths, RATE_LIMIT, { calls: [] });
    expect(readFileSync(outside, 'utf8')).toBe('keep me');
    expect(lstatSync(paths.rateLimit).isSymbolicLink()).toBe(false);
  });
});

describe('updateDocument', () => {
  it('reads, changes and writes under the lock, starting from what is on disk then', async () => {
    const paths = project();
    saveDocument(paths, CIRCUIT_STATE, { ...initialCircuit(NOW), total_opens: 2 });
    const events: string[] = [];
    const after = await updateDocument(paths, CIRCUIT_STATE, { warn: () => {}, nowMs: NOW, lock: recordingLock(events) }, (current) => {
      events.push(`change from total_opens ${current.total_opens}`);
      return { ...current, total_opens: current.total_opens + 1 };
    });
    expect(events).toEqual(['lock .circuit_breaker_state', 'change from total_opens 2', 'release']);
    expect(after.total_opens).toBe(3);
    expect(loadDocument(paths, CIRCUIT_STATE, () => {}, NOW).total_opens).toBe(3);
  });

  it('releases the lock and writes nothing when the change throws', async () => {
    const paths = project();
    const events: string[] = [];
    await expect(
      updateDocument(paths, CIRCUIT_STATE, { warn: () => {}, lock: recordingLock(events) }, () => {
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(events.at(-1)).toBe('release');
    expect(existsSync(paths.circuitState)).toBe(false);
  });
});

describe('the registry', () => {
  it('names every JSON file of a loop once, each under .ralph/, none of them a scratch file', () => {
    const paths = project();
    const files = LOOP_DOCUMENTS.map((doc) => doc.path(paths));
    expect(new Set(files).size).toBe(files.length);
    for (const file of files) expect(file.startsWith(`${paths.dir}/`)).toBe(true);
    for (const file of loopScratchFiles(paths)) expect(files).not.toContain(file);
  });

  it('gives every document an empty value its own schema accepts', () => {
    const paths = project();
    for (const doc of LOOP_DOCUMENTS) {
      const empty = doc.empty(NOW);
      if (empty === undefined) continue;
      saveDocument(paths, doc, empty);
      expect(readDocument(paths, doc)).toEqual({ kind: 'ok', value: JSON.parse(JSON.stringify(empty)) });
    }
  });
});
