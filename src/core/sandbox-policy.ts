import { isAbsolute, join, resolve } from 'node:path';

/**
 * What an agent CLI needs of a sandbox besides the project: the folders it keeps its own
 * settings, sessions and logs in, the hosts of its API, and the variables that point it at
 * another API address (a proxy, a gateway, or a local fake in tests).
 */
export interface SandboxAgentFacts {
  /** Written by the CLI itself: `~/…` paths; a variable, when set, names the folder instead. A file is marked. */
  configDirs: ReadonlyArray<AgentConfigDir>;
  /** The API hosts the agent talks to by default. */
  hosts: readonly string[];
  /** Variables holding a base URL that replaces the default API host. */
  baseUrlVariables: readonly string[];
}

/** One of the agent's own folders (or files) and what in it the agent may only read. */
export interface AgentConfigDir {
  path: string;
  variable?: string;
  file?: true;
  /**
   * Names inside the folder the agent reads but never writes: its settings, hooks, instructions and
   * credentials. A hook or an MCP server planted there would run, uncontained, in the user's next
   * session of that agent. Missing ones are held too, so the agent cannot create them either:
   * a name ending in `/` is a folder, created empty before the run (the sandbox holds a missing
   * name with an empty file, which a CLI that lists the folder would trip over).
   */
  readOnly?: readonly string[];
  /** Names inside the folder that hold its credentials: no other agent may read them. */
  credentials?: readonly string[];
}

/** Places that hold credentials: unreadable inside the sandbox, whatever else is allowed. */
export const SECRET_LOCATIONS: readonly string[] = [
  '~/.ssh',
  '~/.aws',
  '~/.gnupg',
  '~/.config/gh',
  '~/.config/gcloud',
  '~/.azure',
  '~/.netrc',
  '~/.docker',
  '~/.kube',
  '~/.npmrc',
  '~/.pypirc',
  '~/.git-credentials',
  '~/.password-store',
  '~/.vault-token',
  '~/.terraform.d',
  '~/.cargo/credentials.toml',
];

export interface SandboxPolicyInput {
  project: string;
  home: string;
  /** The system temp dir. */
  tmpDir: string;
  /** The environment the agent runs with (its base-URL variables and config-dir variables). */
  env: Readonly<Record<string, string | undefined>>;
  agent: SandboxAgentFacts;
  /** The user's extra hosts and writable paths (RALPH_SANDBOX_ALLOW_DOMAINS / _WRITE). */
  allowDomains: readonly string[];
  allowWrite: readonly string[];
  /** The other agents Ralph can run: their credential files are not for this one. */
  otherAgents?: readonly SandboxAgentFacts[];
  /** Ralph's own files the agent must not change (its settings, its prompt, its state): absolute paths. */
  ralphFiles?: readonly string[];
}

/** The sandbox's rules for one run: absolute paths, host patterns. */
export interface SandboxPolicy {
  /** The temp dir the agent is given (the runtime's own default is a folder of its own in /tmp). */
  tmpDir: string;
  /**
   * The agent's own folders, created before the run when missing: a folder that does not exist
   * cannot be made writable, and the agent could not create it in a home it may not write.
   */
  agentDirs: string[];
  allowWrite: string[];
  /** Inside what may be written, what may not: the agent's settings and credentials, Ralph's own files. */
  denyWrite: string[];
  denyRead: string[];
  allowedDomains: string[];
  /**
   * The agent's API is on this machine (a base URL on 127.0.0.1 or localhost): the sandbox
   * has a network of its own, so such an address is reached only through the proxy, never
   * directly as NO_PROXY would have it.
   */
  localApi: boolean;
}

function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  return path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

const LOOPBACK = /^(127(\.\d{1,3}){3}|localhost|\[::1\])$/i;

/**
 * The host patterns a base URL needs: the host, or for one on this machine `host:port` (the proxy
 * refuses loopback to anything not allowed with its port), as `localhost` and as its address,
 * since a client may name it either way.
 */
export function hostOfBaseUrl(raw: string): { patterns: string[]; local: boolean } | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.hostname === '') return undefined;
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
  const local = LOOPBACK.test(host);
  if (!local) return { patterns: [host], local };
  const withPort = (name: string): string => `${name}${port ? `:${port}` : ''}`;
  return { patterns: host === 'localhost' ? [withPort('localhost'), withPort('127.0.0.1')] : [withPort(host)], local };
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** The effective rules of a sandboxed run, from the defaults, the agent's needs and the user's additions. */
/** Where a config folder is in this environment: the folder its variable names, else its usual place. */
function configDirPath(dir: AgentConfigDir, env: SandboxPolicyInput['env'], home: string): string {
  const named = dir.variable === undefined ? undefined : env[dir.variable];
  return named !== undefined && named !== '' && isAbsolute(named) ? named : expandHome(dir.path, home);
}

export function buildSandboxPolicy(input: SandboxPolicyInput): SandboxPolicy {
  const { home, project } = input;
  const configPaths = input.agent.configDirs.map((dir) => ({ path: configDirPath(dir, input.env, home), file: dir.file === true }));
  const readOnlyNames = input.agent.configDirs.flatMap((dir) => (dir.readOnly ?? []).map((name) => ({ dir: configDirPath(dir, input.env, home), name })));
  const readOnly = readOnlyNames.map(({ dir, name }) => join(dir, name.replace(/\/$/, '')));
  const readOnlyFolders = readOnlyNames.filter(({ name }) => name.endsWith('/')).map(({ dir, name }) => join(dir, name.replace(/\/$/, '')));
  const othersCredentials = (input.otherAgents ?? []).flatMap((agent) =>
    agent.configDirs.flatMap((dir) => (dir.credentials ?? []).map((name) => join(configDirPath(dir, input.env, home), name))),
  );
  const configDirs = configPaths.map((c) => c.path);
  const userWrites = input.allowWrite.map((path) => {
    const expanded = expandHome(path, home);
    return isAbsolute(expanded) ? expanded : resolve(project, expanded);
  });
  let localApi = false;
  const apiHosts: string[] = [];
  for (const variable of input.agent.baseUrlVariables) {
    const value = input.env[variable];
    if (value === undefined || value === '') continue;
    const found = hostOfBaseUrl(value);
    if (!found) continue;
    apiHosts.push(...found.patterns);
    localApi ||= found.local;
  }
  // A loopback address the user allows is reached the same way: through the proxy.
  localApi ||= input.allowDomains.some((pattern) => LOOPBACK.test(pattern.replace(/:\d+$/, '')));
  return {
    tmpDir: input.tmpDir,
    agentDirs: [...configPaths.filter((c) => !c.file).map((c) => c.path), ...readOnlyFolders],
    allowWrite: unique([project, input.tmpDir, ...configDirs, ...userWrites]),
    denyWrite: unique([...readOnly, ...(input.ralphFiles ?? [])]),
    denyRead: unique([...SECRET_LOCATIONS.map((path) => expandHome(path, home)), ...othersCredentials]),
    allowedDomains: unique([...input.agent.hosts, ...apiHosts, ...input.allowDomains]),
    localApi,
  };
}

/** The policy as `ralph --config` shows it. */
export function describeSandboxPolicy(policy: SandboxPolicy, home: string, project?: string): string[] {
  const short = (path: string): string => (path === home ? '~' : path.startsWith(`${home}/`) ? `~/${path.slice(home.length + 1)}` : path);
  // Ralph's own files in the project are many: said as one item, the agent's own listed.
  const inProject = (path: string): boolean => project !== undefined && path.startsWith(`${project}/`);
  const ralphOwn = policy.denyWrite.some(inProject) ? ["Ralph's own files (.ralphrc, the prompt, .ralph/ but for fix_plan.md, AGENT.md and specs/)"] : [];
  const readOnly = [...policy.denyWrite.filter((path) => !inProject(path)).map(short), ...ralphOwn];
  return [
    `  may write:     ${policy.allowWrite.map(short).join(', ')}`,
    `  read-only:     ${readOnly.length > 0 ? readOnly.join(', ') : 'nothing'}`,
    `  cannot read:   ${policy.denyRead.map(short).join(', ')}`,
    `  may connect:   ${policy.allowedDomains.length > 0 ? policy.allowedDomains.join(', ') : 'nothing'} (through the sandbox's proxy only)`,
  ];
}
