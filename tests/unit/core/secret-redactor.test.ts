import { describe, expect, it } from 'vitest';
import { MIN_REDACTED_LENGTH, StreamRedactor, collectSecretValues, createRedactor } from '../../../src/core/secret-redactor.js';

describe('collectSecretValues', () => {
  it('takes secret-named values whole, tokens found in other values whole, and the credential part of stripped values', () => {
    const found = collectSecretValues(
      {
        GITHUB_TOKEN: 'ghp_x1',
        PATH: '/bin',
        HTTPS_PROXY: 'http://u:proxypass@p:1',
        NODE_PATH: 'ghp_abcdefghijklmnopqrstuvwxyz0123',
        MAVEN_OPTS: '-Dproxy.password=mvnpass -Xmx1g',
      },
      { NPM_TOKEN: 'npm-from-flag', PLAIN: 'not-secret' },
    );
    expect(found).toEqual([
      { name: 'GITHUB_TOKEN', value: 'ghp_x1' },
      { name: 'HTTPS_PROXY', value: 'proxypass' },
      { name: 'NODE_PATH', value: 'ghp_abcdefghijklmnopqrstuvwxyz0123' },
      { name: 'MAVEN_OPTS', value: 'mvnpass' },
      { name: 'NPM_TOKEN', value: 'npm-from-flag' },
    ]);
  });
});

describe('createRedactor', () => {
  const redactor = createRedactor([
    { name: 'NPM_TOKEN', value: 'npm_secret_value' },
    { name: 'PGPASSWORD', value: 'pa"ss\\word' },
    { name: 'SHORT', value: 'abc' },
  ]);

  it.each([
    ['publish --token npm_secret_value now', 'publish --token [REDACTED:NPM_TOKEN] now'],
    ['twice npm_secret_valuenpm_secret_value', 'twice [REDACTED:NPM_TOKEN][REDACTED:NPM_TOKEN]'],
    [JSON.stringify({ cmd: 'psql pa"ss\\word' }), JSON.stringify({ cmd: 'psql [REDACTED:PGPASSWORD]' })],
    ['raw pa"ss\\word', 'raw [REDACTED:PGPASSWORD]'],
    ['abc is too short to look for', 'abc is too short to look for'],
    ['', ''],
  ])('%s', (input, output) => {
    expect(redactor.redact(input)).toBe(output);
  });

  it(`ignores values shorter than ${MIN_REDACTED_LENGTH} characters`, () => {
    expect(createRedactor([{ name: 'X_TOKEN', value: 'true' }]).longest).toBe(0);
  });
});

describe('StreamRedactor', () => {
  it('finds a value split anywhere across pieces and loses no other character', () => {
    const redactor = createRedactor([{ name: 'NPM_TOKEN', value: 'npm_secret_value' }]);
    const text = 'start npm_secret_value middle npm_secret_value end';
    for (let size = 1; size <= text.length; size += 1) {
      const stream = new StreamRedactor(redactor);
      let out = '';
      for (let i = 0; i < text.length; i += size) out += stream.write(text.slice(i, i + size));
      out += stream.end();
      expect(out, `pieces of ${size}`).toBe('start [REDACTED:NPM_TOKEN] middle [REDACTED:NPM_TOKEN] end');
    }
  });
});
