import { describe, expect, it } from 'vitest';
import { BACKEND_NAMES, backendEntry } from '../../../src/backends/registry.js';
import { buildSandboxPolicy } from '../../../src/core/sandbox-policy.js';

const agents = BACKEND_NAMES.filter((name) => backendEntry(name).sandbox.configDirs.length > 0);

describe("each agent's sandbox facts", () => {
  it.each(agents)('%s: its settings are read-only, its login is read-only to it and unreadable to every other agent', (name) => {
    const facts = backendEntry(name).sandbox;
    const readOnly = facts.configDirs.flatMap((dir) => (dir.readOnly ?? []).map((entry) => `${dir.path}/${entry.replace(/\/$/, '')}`));
    const credentials = facts.configDirs.flatMap((dir) => (dir.credentials ?? []).map((entry) => `${dir.path}/${entry}`));
    expect(readOnly.length).toBeGreaterThan(0);
    expect(credentials.length).toBeGreaterThan(0);
    for (const credential of credentials) expect(readOnly).toContain(credential);

    const home = '/home/u';
    const own = buildSandboxPolicy({
      project: '/work/app',
      home,
      tmpDir: '/tmp',
      env: {},
      agent: facts,
      otherAgents: BACKEND_NAMES.filter((other) => other !== name).map((other) => backendEntry(other).sandbox),
      allowDomains: [],
      allowWrite: [],
    });
    const expand = (path: string): string => path.replace(/^~/, home);
    for (const credential of credentials) {
      expect(own.denyRead).not.toContain(expand(credential));
      expect(own.denyWrite).toContain(expand(credential));
    }
    // Every other agent's login is out of this one's reach.
    for (const other of agents.filter((o) => o !== name)) {
      for (const dir of backendEntry(other).sandbox.configDirs)
        for (const credential of dir.credentials ?? []) expect(own.denyRead).toContain(expand(`${dir.path}/${credential}`));
    }
  });
});
