import { describe, expect, it } from 'vitest';
import { describeEnvFilter, isSecretName, judgeValue } from '../../../src/core/secret-env.js';
import { PLANTED_SECRETS } from '../../helpers/planted-secrets.js';

describe('isSecretName', () => {
  it.each([
    'PGPASSWORD',
    'MYSQL_PWD',
    'SMTP_PASS',
    'SENTRY_DSN',
    'DOCKER_AUTH_CONFIG',
    'AZURE_STORAGE_CONNECTION_STRING',
    'SLACK_WEBHOOK_URL',
    'AWS_ACCESS_KEY_ID',
    'GPG_AGENT_INFO',
    'SECRET_KEY_BASE',
    'APP_COOKIE_SECRET',
  ])('%s is a secret', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each([
    'PATH',
    'PWD',
    'OLDPWD',
    'GIT_AUTHOR_NAME',
    'GIT_AUTHOR_EMAIL',
    'XAUTHORITY',
    'NODE_OPTIONS',
    'MAVEN_OPTS',
    'HTTPS_PROXY',
    'KEYBOARD_LAYOUT',
    'TERM_SESSION_ID',
  ])('%s is not a secret by its name', (name) => {
    expect(isSecretName(name)).toBe(false);
  });
});

describe('judgeValue', () => {
  it.each([
    ['-Xmx1g -Dhttps.proxyPassword=hunter2 -Dfile.encoding=UTF-8', '-Xmx1g -Dfile.encoding=UTF-8', ['hunter2']],
    ['--max-old-space-size=4096 --token=abc123', '--max-old-space-size=4096', ['abc123']],
    ['-Djavax.net.ssl.trustStorePassword=changeit', '', ['changeit']],
    ['http://user:pw@proxy.corp:8080', 'http://proxy.corp:8080', ['pw']],
    ['mongodb+srv://admin:s3cr3t@cluster0.example.net/db', 'mongodb+srv://cluster0.example.net/db', ['s3cr3t']],
    ['redis://:onlypass@cache:6379', 'redis://cache:6379', ['onlypass']],
  ])('%s → strips the credential', (value, rest, removed) => {
    expect(judgeValue(value)).toEqual({ kind: 'stripped', value: rest, removed });
  });

  it.each([
    'ghp_abcdefghijklmnopqrstuvwxyz0123',
    'x github_pat_11ABCDEFG0123456789_abcdefghij',
    'glpat-abcdefghij0123456789',
    'npm_abcdefghijklmnopqrstuvwxyz0123456789',
    'xoxb-1234567890-abcdef',
    'AKIAABCDEFGHIJKLMNOP',
    'ASIAABCDEFGHIJKLMNOP',
    'ghs_abcdefghijklmnopqrstuvwxyz0123',
    'sk-ant-api03-abcdefghijklmnopqrstuvwxyz',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlX2hlcmU',
    '-----BEGIN OPENSSH PRIVATE KEY-----\nabc',
  ])('%s is a token: the whole value is withheld', (value) => {
    expect(judgeValue(value)).toEqual({ kind: 'secret' });
  });

  it.each(['/usr/bin:/bin', 'en_US.UTF-8', '-Xmx1g -Dfile.encoding=UTF-8', 'https://proxy.corp:8080', 'di=01;34:ln=01;36', 'user@example.com', ''])(
    '%s is clean',
    (value) => {
      expect(judgeValue(value)).toEqual({ kind: 'clean' });
    },
  );

  it('classifies every planted credential by its name or its value', () => {
    for (const [name, value] of Object.entries(PLANTED_SECRETS)) {
      expect(isSecretName(name) || judgeValue(value).kind !== 'clean', name).toBe(true);
    }
  });
});

describe('describeEnvFilter', () => {
  it('names what was withheld and stripped, never a value', () => {
    expect(describeEnvFilter('Agent', { withheld: ['GITHUB_TOKEN', 'NPM_TOKEN'], stripped: ['HTTPS_PROXY'] }, '--agent-env NAME')).toBe(
      'Agent environment: withheld GITHUB_TOKEN, NPM_TOKEN; removed credentials from HTTPS_PROXY (pass a variable through with --agent-env NAME).',
    );
  });

  it('says nothing when nothing was filtered', () => {
    expect(describeEnvFilter('Agent', { withheld: [], stripped: [] }, '--agent-env NAME')).toBeUndefined();
  });
});
