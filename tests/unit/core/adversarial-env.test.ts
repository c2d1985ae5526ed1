// The attacker's table of issue "allow, don't guess": every credential in it is kept from the
// agent (and from the verify command and from what Ralph writes), every harmless variable
// passes unchanged. With the classifier before these rules, 24 of the 40 secrets reached the agent.
import { describe, expect, it } from 'vitest';
import { claudeCredentials } from '../../../src/backends/claude/claude-credentials.js';
import { buildAgentEnv } from '../../../src/core/agent-env.js';
import { collectSecretValues, createRedactor } from '../../../src/core/secret-redactor.js';
import { buildVerifyEnv } from '../../../src/core/verify-env.js';
import { ADVERSARIAL_SECRETS, HARMLESS_VARIABLES, adversarialEnv, adversarialLeaks } from '../../helpers/adversarial-env.js';

const env = adversarialEnv();
const agent = buildAgentEnv(env, [], claudeCredentials(env));

describe('the adversarial environment', () => {
  it('is large enough to mean something', () => {
    expect(ADVERSARIAL_SECRETS.length).toBeGreaterThanOrEqual(30);
    expect(Object.keys(HARMLESS_VARIABLES).length).toBeGreaterThanOrEqual(10);
  });

  it.each(ADVERSARIAL_SECRETS.map((s) => [s.name, s] as const))('%s does not reach the agent', (_name, secret) => {
    expect(agent.env[secret.name] ?? '').not.toContain(secret.secret);
    expect(agent.withheld.includes(secret.name) || agent.stripped.includes(secret.name)).toBe(true);
  });

  it.each(Object.entries(HARMLESS_VARIABLES))('%s reaches the agent unchanged', (name, value) => {
    expect(agent.env[name]).toBe(value);
  });

  it('leaks none of them, counted: withheld or cut out 40 of 40, leaked 0', () => {
    const leaked = adversarialLeaks(JSON.stringify(agent.env));
    expect({ kept: ADVERSARIAL_SECRETS.length - leaked.length, leaked }).toEqual({ kept: ADVERSARIAL_SECRETS.length, leaked: [] });
  });

  it('passes every one of them when the user names it', () => {
    const names = ADVERSARIAL_SECRETS.map((s) => s.name);
    const passed = buildAgentEnv(env, names, claudeCredentials(env));
    for (const s of ADVERSARIAL_SECRETS) expect(passed.env[s.name]).toBe(s.value);
  });

  it('keeps them from the verify command too', () => {
    expect(adversarialLeaks(JSON.stringify(buildVerifyEnv(env)))).toEqual([]);
  });

  it('redacts each of them from what Ralph writes', () => {
    const redactor = createRedactor(collectSecretValues(env));
    const text = ADVERSARIAL_SECRETS.map((s) => `${s.name} is ${s.value}`).join('\n');
    expect(adversarialLeaks(redactor.redact(text))).toEqual([]);
    const harmless = Object.values(HARMLESS_VARIABLES).join('\n');
    expect(redactor.redact(harmless)).toBe(harmless);
  });
});
