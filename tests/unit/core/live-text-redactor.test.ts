import { describe, expect, it } from 'vitest';
import { LiveTextRedactor, type LivePart } from '../../../src/core/live-text-redactor.js';
import { createRedactor } from '../../../src/core/secret-redactor.js';

const TOKEN = 'ghp_SPLITacrossTwoMessages000000000001';
const agent = (text: string): LivePart => ({ text, agent: true });
const ralph = (text: string): LivePart => ({ text, agent: false });

function run(pieces: readonly LivePart[][]): { shown: string[]; all: string } {
  const redactor = new LiveTextRedactor(createRedactor([{ name: 'GITHUB_TOKEN', value: TOKEN }]));
  const shown = pieces.map((parts) => redactor.write(parts));
  shown.push(redactor.end());
  return { shown, all: shown.join('') };
}

describe('LiveTextRedactor', () => {
  it.each([
    [
      'two messages, a line break between',
      [
        [agent('token ghp_SPLIT'), ralph('\n')],
        [agent('acrossTwoMessages000000000001 done'), ralph('\n')],
      ],
    ],
    ['deltas of one message', [[agent('token ghp_SP')], [agent('LITacrossTwo')], [agent('Messages000000000001 done')], [ralph('\n')]]],
    [
      'a tool line between the halves',
      [[agent('token ghp_SPLITacross'), ralph('\n')], [ralph('⚡ [Bash]\n')], [agent('TwoMessages000000000001 done'), ralph('\n')]],
    ],
  ])('finds a token split over %s', (_name, pieces) => {
    const { all } = run(pieces);
    expect(all.replace(/\n/g, '')).not.toContain(TOKEN);
    expect(all).toContain('token [REDACTED:GITHUB_TOKEN]');
    expect(all).toContain(' done\n');
    expect(all).not.toContain('ghp_');
  });

  it('holds back only what could start a secret, and Ralph text after it, keeping the order', () => {
    const { shown } = run([[agent('plain words\n')], [agent('now ghp_SP')], [ralph('\n⚡ [Bash]\n')], [agent('nothing more')]]);
    expect(shown[0]).toBe('plain words\n');
    expect(shown[1]).toBe('now ');
    expect(shown[2]).toBe('');
    expect(shown[3]).toBe('ghp_SP\n⚡ [Bash]\nnothing more');
    expect(shown[4]).toBe('');
  });

  it('lets out what it held when the call ends', () => {
    const { shown } = run([[agent('ends with ghp_SPL')]]);
    expect(shown).toEqual(['ends with ', 'ghp_SPL']);
  });

  it('passes everything through at once when there are no secrets to look for', () => {
    const redactor = new LiveTextRedactor(createRedactor([]));
    expect(redactor.write([agent('ghp_'), ralph('\n')])).toBe('ghp_\n');
    expect(redactor.end()).toBe('');
  });
});
