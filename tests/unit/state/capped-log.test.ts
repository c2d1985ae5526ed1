import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NO_REDACTION, createRedactor } from '../../../src/core/secret-redactor.js';
import { CappedLog, OUTPUT_LOG_CAP, describeCut } from '../../../src/state/capped-log.js';
import { toByteString } from '../../../src/state/redaction.js';
import { tempDir } from '../../helpers/temp-dir.js';

function logIn(dir: string, maxBytes: number, tailBytes: number, redactor = NO_REDACTION): CappedLog {
  return new CappedLog(join(dir, 'out.log'), { maxBytes, tailBytes }, redactor);
}

describe('CappedLog', () => {
  it('defaults to 10 MB with the last 1 MB kept', () => {
    expect(OUTPUT_LOG_CAP).toEqual({ maxBytes: 10 * 1024 * 1024, tailBytes: 1024 * 1024 });
  });

  it('writes everything when the output fits', () => {
    const dir = tempDir();
    const log = logIn(dir, 100, 20);
    log.write(Buffer.from('hello '));
    log.write(Buffer.from('world'));
    log.close();
    expect(readFileSync(log.path, 'utf8')).toBe('hello world');
    expect(log.cutBytes).toBe(0);
  });

  it('keeps the head and the tail and says how much was cut between them', () => {
    const dir = tempDir();
    const log = logIn(dir, 30, 10);
    const input = Array.from({ length: 20 }, (_, i) => `line${String(i).padStart(2, '0')}\n`).join('');
    for (let i = 0; i < input.length; i += 7) log.write(Buffer.from(input.slice(i, i + 7)));
    log.close();
    const cut = input.length - 30;
    expect(log.cutBytes).toBe(cut);
    expect(readFileSync(log.path, 'utf8')).toBe(input.slice(0, 20) + describeCut(cut, 20, 10) + input.slice(-10));
  });

  it('keeps bytes that are not valid UTF-8 unchanged', () => {
    const dir = tempDir();
    const log = logIn(dir, 100, 10);
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0xa9, 0x80]);
    log.write(bytes.subarray(0, 4));
    log.write(bytes.subarray(4));
    log.close();
    expect(readFileSync(log.path).equals(bytes)).toBe(true);
  });

  it('redacts a secret even when it arrives split across writes, in UTF-8', () => {
    const dir = tempDir();
    const redactor = createRedactor([{ name: 'DB_PASSWORD', value: 'pässwörd-123' }], toByteString);
    const log = logIn(dir, 1000, 100, redactor);
    const text = Buffer.from('before pässwörd-123 after pässwörd-123');
    for (let i = 0; i < text.length; i += 3) log.write(text.subarray(i, i + 3));
    log.close();
    expect(readFileSync(log.path, 'utf8')).toBe('before [REDACTED:DB_PASSWORD] after [REDACTED:DB_PASSWORD]');
  });

  it('with secrets to look for, output that holds none is written byte for byte, whatever the cut between writes', () => {
    const redactor = createRedactor([{ name: 'API_KEY', value: 'sk-secret-value-1234' }], toByteString);
    const bytes = Buffer.concat([Buffer.from('plain text sk-secret-value-123 almost '), Buffer.from([0xff, 0x00, 0xc3]), Buffer.from(' end')]);
    for (const size of [1, 5, 19, bytes.length]) {
      const log = logIn(tempDir(), 1000, 100, redactor);
      for (let i = 0; i < bytes.length; i += size) log.write(bytes.subarray(i, i + size));
      log.close();
      expect(readFileSync(log.path).equals(bytes)).toBe(true);
    }
  });

  it('redacts a secret at the very end of the output and a short one among the bytes held back', () => {
    const redactor = createRedactor(
      [
        { name: 'LONG_TOKEN', value: 'a-much-longer-secret-token' },
        { name: 'SHORT', value: 'pw-1234' },
      ],
      toByteString,
    );
    for (const size of [1, 4, 64]) {
      const log = logIn(tempDir(), 1000, 100, redactor);
      const text = Buffer.from('x a-much-longer-secret-token y pw-1234');
      for (let i = 0; i < text.length; i += size) log.write(text.subarray(i, i + size));
      log.close();
      expect(readFileSync(log.path, 'utf8')).toBe('x [REDACTED:LONG_TOKEN] y [REDACTED:SHORT]');
    }
  });

  it('redacts a value wherever the cut between two writes falls, pieces longer than the value included', () => {
    const redactor = createRedactor([{ name: 'API_KEY', value: 'sk-secret-value-1234' }], toByteString);
    const text = `${'a'.repeat(40)}sk-secret-value-1234${'b'.repeat(40)}sk-secret-value-1234${'c'.repeat(3)}`;
    const expected = text.replaceAll('sk-secret-value-1234', '[REDACTED:API_KEY]');
    const dir = tempDir();
    for (let cut = 1; cut < text.length; cut += 1) {
      for (const size of [cut, text.length - cut]) {
        const log = logIn(dir, 1000, 100, redactor);
        log.write(Buffer.from(text.slice(0, cut)));
        for (let i = cut; i < text.length; i += size) log.write(Buffer.from(text.slice(i, i + size)));
        log.close();
        expect(readFileSync(log.path, 'utf8')).toBe(expected);
      }
    }
  });

  it('keeps the tail right when it holds whole chunks and pieces of them, a value among them', () => {
    const redactor = createRedactor([{ name: 'API_KEY', value: 'sk-secret-value-1234' }], toByteString);
    const text = Array.from({ length: 40 }, (_, i) => `line ${String(i).padStart(2, '0')} ${i === 33 ? 'sk-secret-value-1234' : 'plain'}\n`).join('');
    const expected = text.replaceAll('sk-secret-value-1234', '[REDACTED:API_KEY]');
    for (const size of [7, 64, 200]) {
      const log = logIn(tempDir(), 300, 120, redactor);
      for (let i = 0; i < text.length; i += size) log.write(Buffer.from(text.slice(i, i + size)));
      log.close();
      const written = readFileSync(log.path, 'utf8');
      const cut = log.cutBytes;
      expect(written).toBe(expected.slice(0, 180) + describeCut(cut, 180, 120) + expected.slice(-120));
    }
  });

  it('a log that cannot be opened is skipped, never an error', () => {
    const log = new CappedLog(join(tempDir(), 'missing-dir', 'out.log'), { maxBytes: 10, tailBytes: 5 }, NO_REDACTION);
    expect(() => {
      log.write(Buffer.from('x'.repeat(100)));
      log.close();
    }).not.toThrow();
  });

  it('creates the file at the first output, not before: the agent is already working then', () => {
    const log = logIn(tempDir(), 100, 20);
    expect(existsSync(log.path)).toBe(false);
    log.write(Buffer.from('first'));
    expect(readFileSync(log.path, 'utf8')).toBe('first');
    log.close();
    expect(readFileSync(log.path, 'utf8')).toBe('first');
  });

  it('an agent that printed nothing still leaves its (empty) log at the close', () => {
    const log = logIn(tempDir(), 100, 20);
    log.close();
    log.close();
    expect(readFileSync(log.path, 'utf8')).toBe('');
  });
});
