import { describe, expect, it } from 'vitest';
import {
  VERIFY_ENV_ALLOWLIST,
  buildVerifyEnv,
  droppedVerifyEnvNames,
  isAllowedName,
  isSecretName,
  strippedVerifyEnvNames,
} from '../../../src/core/verify-env.js';

const parent = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/u',
  USER: 'u',
  SHELL: '/bin/bash',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  LC_MESSAGES: 'en_US.UTF-8',
  TERM: 'xterm',
  TZ: 'UTC',
  CI: 'true',
  NODE_ENV: 'test',
  GITHUB_TOKEN: 'ghp_secret123',
  GH_TOKEN: 'ghp_other',
  AWS_SECRET_ACCESS_KEY: 'secret-key',
  AWS_ACCESS_KEY_ID: 'AKIA123',
  AWS_SESSION_TOKEN: 'session',
  ANTHROPIC_API_KEY: 'sk-ant-123',
  OPENAI_API_KEY: 'sk-123',
  NPM_TOKEN: 'npm_123',
  MY_SERVICE_SECRET: 's',
  STRIPE_KEY: 'k',
  DB_PASSWORD: 'p',
  DATABASE_URL: 'postgres://u:p@h/db',
  HTTPS_PROXY: 'http://user:pw@proxy:8080',
  SSH_AUTH_SOCK: '/tmp/ssh-agent',
  GIT_DIR: '/elsewhere/.git',
  RANDOM_THING: 'x',
  UNDEFINED_ONE: undefined,
};

describe('buildVerifyEnv', () => {
  const env = buildVerifyEnv(parent);

  it.each(['PATH', 'HOME', 'USER', 'SHELL', 'LANG', 'LC_ALL', 'LC_MESSAGES', 'TERM', 'TZ', 'CI', 'NODE_ENV'])('keeps %s', (name) => {
    expect(env[name]).toBe(parent[name as keyof typeof parent]);
  });

  it.each([
    'GITHUB_TOKEN',
    'GH_TOKEN',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_ACCESS_KEY_ID',
    'AWS_SESSION_TOKEN',
    'ANTHROPIC_API_KEY',
    'OPENAI_API_KEY',
    'NPM_TOKEN',
    'MY_SERVICE_SECRET',
    'STRIPE_KEY',
    'DB_PASSWORD',
    'DATABASE_URL',
    'HTTPS_PROXY',
    'SSH_AUTH_SOCK',
    'GIT_DIR',
    'RANDOM_THING',
    'UNDEFINED_ONE',
  ])('drops %s', (name) => {
    expect(name in env).toBe(false);
  });

  it('never carries a secret value under any name', () => {
    const values = Object.values(env).join('\n');
    for (const secret of ['ghp_secret123', 'secret-key', 'sk-ant-123', 'npm_123', 'user:pw']) expect(values).not.toContain(secret);
  });

  it('passes explicit overrides, even secret-looking ones the user asked for by name', () => {
    const withOverrides = buildVerifyEnv(parent, { API_BASE: 'http://localhost', TEST_TOKEN: 'fixture-token', PATH: '/custom/bin' });
    expect(withOverrides['API_BASE']).toBe('http://localhost');
    expect(withOverrides['TEST_TOKEN']).toBe('fixture-token');
    expect(withOverrides['PATH']).toBe('/custom/bin');
    expect(withOverrides['GITHUB_TOKEN']).toBeUndefined();
  });

  it('cuts credentials out of allowlisted values and drops allowlisted values that are tokens', () => {
    const env = buildVerifyEnv({
      MAVEN_OPTS: '-Xmx1g -Dhttps.proxyPassword=hunter2',
      GRADLE_USER_HOME: '/home/u/.gradle',
      GOFLAGS: '-mod=mod',
      NODE_OPTIONS: '--require=/x.js --token=abc123',
      NODE_PATH: 'ghp_abcdefghijklmnopqrstuvwxyz0123',
    });
    expect(env).toEqual({ MAVEN_OPTS: '-Xmx1g', GRADLE_USER_HOME: '/home/u/.gradle', GOFLAGS: '-mod=mod', NODE_OPTIONS: '--require=/x.js' });
    expect(droppedVerifyEnvNames({ NODE_PATH: 'ghp_abcdefghijklmnopqrstuvwxyz0123', PATH: '/bin' })).toEqual(['NODE_PATH']);
    expect(strippedVerifyEnvNames({ MAVEN_OPTS: '-Dproxy.password=x1', HTTPS_PROXY: 'http://u:p@h', PATH: '/bin' })).toEqual(['MAVEN_OPTS']);
  });

  it('works on an empty parent environment', () => {
    expect(buildVerifyEnv({})).toEqual({});
  });

  it('lists what it withheld by name only', () => {
    const dropped = droppedVerifyEnvNames(parent);
    expect(dropped).toContain('GITHUB_TOKEN');
    expect(dropped).not.toContain('PATH');
    expect(dropped).not.toContain('UNDEFINED_ONE');
  });
});

describe('isSecretName', () => {
  it.each([
    ['GITHUB_TOKEN', true],
    ['AWS_SECRET_ACCESS_KEY', true],
    ['ANTHROPIC_API_KEY', true],
    ['SOME_APIKEY', true],
    ['X_PRIVATE_KEY', true],
    ['SERVICE_CREDENTIALS', true],
    ['MYSQL_PASSWD', true],
    ['LC_TOKEN_X', true],
    ['PATH', false],
    ['HOME', false],
    ['NODE_OPTIONS', false],
    ['MONKEY', false],
  ])('%s → %s', (name, expected) => {
    expect(isSecretName(name)).toBe(expected);
  });

  it('no allowlisted name looks like a secret (the list stays usable)', () => {
    for (const name of VERIFY_ENV_ALLOWLIST) expect(isAllowedName(name), name).toBe(true);
  });

  it('an allowlisted prefix does not let a secret through', () => {
    expect(isAllowedName('LC_CTYPE')).toBe(true);
    expect(isAllowedName('LC_SECRET')).toBe(false);
    expect(isAllowedName('LC_')).toBe(false);
  });
});
