import { describe, expect, it } from 'vitest';
import { parseRalphrc, RALPHRC_MAX_VALUE_CHARS } from '../../../src/config/ralphrc.js';

/** Parses a one-line file and returns the value of its only entry (fails if there was an error). */
function valueOf(line: string, env: Record<string, string> = {}): string | undefined {
  const parsed = parseRalphrc(line, env);
  expect(parsed.errors).toEqual([]);
  return parsed.entries[0]?.value;
}

function errorOf(line: string): string {
  const parsed = parseRalphrc(line);
  expect(parsed.entries).toEqual([]);
  expect(parsed.errors).toHaveLength(1);
  return parsed.errors[0]?.message ?? '';
}

describe('parseRalphrc: values', () => {
  it.each([
    ['MAX_CALLS_PER_HOUR=50', '50'],
    ['A=plain', 'plain'],
    ["A='single quoted'", 'single quoted'],
    ['A="double quoted"', 'double quoted'],
    ["A='$HOME is not expanded in single quotes'", '$HOME is not expanded in single quotes'],
    ['A=\'a "b" c\'', 'a "b" c'],
    ['A="it\'s"', "it's"],
    ['A="say \\"hi\\""', 'say "hi"'],
    ['A="back\\\\slash"', 'back\\slash'],
    ['A="cost \\$5"', 'cost $5'],
    ['A="keeps \\n as typed"', 'keeps \\n as typed'],
    ['A=', ''],
    ['A=""', ''],
    ["A=''", ''],
    ['ALLOWED_TOOLS="Write,Read,Bash(git *)"', 'Write,Read,Bash(git *)'],
    ['CLAUDE_CODE_CMD="npx @anthropic-ai/claude-code"', 'npx @anthropic-ai/claude-code'],
    ['A=a#b', 'a#b'],
    ['A=1 # trailing comment', '1'],
    ['A=1\t# tab then comment', '1'],
    ['A="x y" # comment after quotes', 'x y'],
    ["A='x y'   # comment after quotes", 'x y'],
    ['A="has # inside"', 'has # inside'],
    ['A=value   ', 'value'],
    ['   A=indented', 'indented'],
    ['export A=exported', 'exported'],
    ['export    A="spaced export"', 'spaced export'],
  ])('%s → %j', (line, value) => {
    expect(valueOf(line)).toBe(value);
  });

  it('a comment may mention $(...) and backticks', () => {
    expect(valueOf('A=1 # set with $(nproc) or `nproc`')).toBe('1');
    expect(valueOf('B="x" # $(not run)')).toBe('x');
    expect(parseRalphrc('# CMD=$(whoami)\n#  `id`').errors).toEqual([]);
  });

  it('reads an escaped "$(" literally instead of refusing it', () => {
    expect(valueOf('A="\\$(not a command)"')).toBe('$(not a command)');
  });
});

describe('parseRalphrc: file structure', () => {
  it('skips comments and blank lines and keeps line numbers', () => {
    const text = ['# Ralph configuration', '', '   # indented comment', 'A=1', '   ', 'export B="two"', 'C=3 # three'].join('\n');
    expect(parseRalphrc(text)).toEqual({
      entries: [
        { key: 'A', value: '1', line: 4 },
        { key: 'B', value: 'two', line: 6 },
        { key: 'C', value: '3', line: 7 },
      ],
      errors: [],
    });
  });

  it('reads CRLF files like LF files', () => {
    const parsed = parseRalphrc('A=1\r\nB="two"\r\n# c\r\nC=\'three\'\r\nD=4 # x\r\n');
    expect(parsed.errors).toEqual([]);
    expect(parsed.entries.map((e) => [e.key, e.value, e.line])).toEqual([
      ['A', '1', 1],
      ['B', 'two', 2],
      ['C', 'three', 4],
      ['D', '4', 5],
    ]);
  });

  it('ignores a UTF-8 byte order mark', () => {
    expect(parseRalphrc('\uFEFFMAX_CALLS_PER_HOUR=7\n').entries).toEqual([{ key: 'MAX_CALLS_PER_HOUR', value: '7', line: 1 }]);
  });

  it('keeps every occurrence of a repeated key in order (the caller applies the last)', () => {
    expect(parseRalphrc('A=1\nA=2').entries.map((e) => e.value)).toEqual(['1', '2']);
  });

  it('reports each bad line and still reads the good ones', () => {
    const parsed = parseRalphrc(['A=1', 'B=$(whoami)', 'C=3', 'D=two words', 'E=5'].join('\n'));
    expect(parsed.entries.map((e) => e.key)).toEqual(['A', 'C', 'E']);
    expect(parsed.errors.map((e) => e.line)).toEqual([2, 4]);
  });

  it('returns nothing for an empty file', () => {
    expect(parseRalphrc('')).toEqual({ entries: [], errors: [] });
  });
});

describe('parseRalphrc: variable expansion', () => {
  it('expands $VAR and ${VAR} from keys defined earlier in the file', () => {
    const parsed = parseRalphrc('BASE=/opt/tools\nCMD=$BASE/claude\nCMD2="${BASE}/bin"\nCMD3=${BASE}x');
    expect(parsed.errors).toEqual([]);
    expect(parsed.entries.map((e) => e.value)).toEqual(['/opt/tools', '/opt/tools/claude', '/opt/tools/bin', '/opt/toolsx']);
  });

  it('expands variables from the environment', () => {
    expect(valueOf('RALPH_SHELL_INIT_FILE="$HOME/.zshrc"', { HOME: '/home/ada' })).toBe('/home/ada/.zshrc');
    expect(valueOf('A=${USER}-box', { USER: 'ada' })).toBe('ada-box');
  });

  it('prefers a key defined earlier in the file over the environment', () => {
    const parsed = parseRalphrc('NAME=file\nGREETING="hi $NAME"', { NAME: 'env' });
    expect(parsed.entries[1]?.value).toBe('hi file');
  });

  it('expands an undefined variable to an empty string, as a shell would', () => {
    expect(valueOf('A="x${NOPE}y"')).toBe('xy');
  });

  it.each([
    ['VERIFY_COMMAND="npm publish --token $NPM_TOKEN"', 'NPM_TOKEN'],
    ['VERIFY_COMMAND=psql\${DATABASE_URL}', 'DATABASE_URL'],
    ['VERIFY_COMMAND="curl -u me:${API_PASSWORD} x"', 'API_PASSWORD'],
    ['CLAUDE_CODE_CMD=$GH_TOKEN', 'GH_TOKEN'],
  ])('refuses to expand a secret-looking variable: %s', (line, name) => {
    const parsed = parseRalphrc(`# rc\n${line}`, { NPM_TOKEN: 'npm_x', DATABASE_URL: 'postgres://u:p@h/d', API_PASSWORD: 'pw', GH_TOKEN: 'ghp_x' });
    expect(parsed.entries).toEqual([]);
    expect(parsed.errors).toHaveLength(1);
    expect(parsed.errors[0]?.line).toBe(2);
    expect(parsed.errors[0]?.message).toContain(`$${name} looks like a secret`);
    expect(parsed.errors[0]?.message).toContain(`--verify-env ${name}=`);
    for (const value of ['npm_x', 'postgres://', 'ghp_x']) expect(parsed.errors[0]?.message).not.toContain(value);
  });

  it.each([
    ['VERIFY_COMMAND="./deploy.sh --creds $DEPLOY_CREDS"', 'DEPLOY_CREDS', 'looks like a secret'],
    ['VERIFY_COMMAND="docker login -p ${DOCKERHUB_PAT}"', 'DOCKERHUB_PAT', 'looks like a secret'],
    ['VERIFY_COMMAND="git clone $MIRROR"', 'MIRROR', 'holds what looks like a credential'],
    ['VERIFY_COMMAND="psql $DB"', 'DB', 'holds what looks like a credential'],
    ['VERIFY_COMMAND="curl -H ${HEADER} x"', 'HEADER', 'holds what looks like a credential'],
  ])('refuses a variable named or valued like a credential, as the agent environment does: %s', (line, name, why) => {
    const env = {
      DEPLOY_CREDS: 'deploy:Xq7pL2mN9vR4tK8w',
      DOCKERHUB_PAT: 'dckr_pat_2xYqLmN8vR4tK9wZp1sT5uV',
      MIRROR: 'https://Tk9xL2mQ7vR4pN8wZ3yB5cD1@git.corp.example/repo.git',
      DB: 'jdbc:postgresql://db:5432/app?user=app&password=Jd8cPassw0rd',
      HEADER: 'Authorization: Bearer Zx81kLmQ2vR9tN4pW7yB',
    };
    const parsed = parseRalphrc(line, env);
    expect(parsed.entries).toEqual([]);
    expect(parsed.errors[0]?.message).toContain(`$${name} ${why}`);
    expect(parsed.errors[0]?.message).toContain(`--verify-env ${name}=`);
    for (const value of Object.values(env)) expect(parsed.errors[0]?.message).not.toContain(value);
  });

  it.each([
    'VERIFY_COMMAND="npm publish --token=npm_Q8Lm2Xv9Rn4Kp7Wb3Yc6Hd1Fs0Gj5ZeAbCd"',
    'VERIFY_COMMAND=\'curl -H "Authorization: Bearer Zx81kLmQ2vR9tN4pW7yB" https://x\'',
    'VERIFY_COMMAND="git clone https://ci:Rg7pQ2xL9mN4@git.corp.example/r.git"',
    'VERIFY_COMMAND="mvn test -Dpassword=hunter2secret"',
  ])('refuses a credential written into a setting: %s', (line) => {
    const parsed = parseRalphrc(line);
    expect(parsed.entries).toEqual([]);
    expect(parsed.errors[0]?.message).toContain('a secret written in .ralphrc shows up in the command line, status files, logs and --config');
    expect(parsed.errors[0]?.message).toContain('--verify-env NAME=');
  });

  it("accepts what only names a credential for the command's shell, and VERIFY_ENV values (redacted by design)", () => {
    expect(valueOf(`VERIFY_COMMAND='mvn test -Dpassword="$DB_PASSWORD" --token=$NPM_TOKEN'`)).toBe('mvn test -Dpassword="$DB_PASSWORD" --token=$NPM_TOKEN');
    expect(valueOf('VERIFY_ENV="NPM_TOKEN=npm_Q8Lm2Xv9Rn4Kp7Wb3Yc6Hd1Fs0Gj5ZeAbCd"')).toBe('NPM_TOKEN=npm_Q8Lm2Xv9Rn4Kp7Wb3Yc6Hd1Fs0Gj5ZeAbCd');
    expect(valueOf('VERIFY_COMMAND="npm test -- --reporter=verbose"')).toBe('npm test -- --reporter=verbose');
    expect(valueOf(`CODEX_EXTRA_ARGS='-c model_providers.x.env_key="AZURE_OPENAI_API_KEY"'`)).toBe('-c model_providers.x.env_key="AZURE_OPENAI_API_KEY"');
    expect(valueOf('A="$HOME/x"', { HOME: '/home/ada' })).toBe('/home/ada/x');
  });

  it("leaves a secret reference in single quotes (or escaped) to the command's own shell", () => {
    expect(valueOf(`VERIFY_COMMAND='npm publish --token "$NPM_TOKEN"'`, { NPM_TOKEN: 'npm_x' })).toBe('npm publish --token "$NPM_TOKEN"');
    expect(valueOf('VERIFY_COMMAND="npm publish --token \\$NPM_TOKEN"', { NPM_TOKEN: 'npm_x' })).toBe('npm publish --token $NPM_TOKEN');
  });

  it('does not see keys defined later in the file', () => {
    const parsed = parseRalphrc('A=$LATER\nLATER=1');
    expect(parsed.entries[0]?.value).toBe('');
  });

  it('does not expand inside single quotes', () => {
    expect(valueOf("A='${HOME}'", { HOME: '/home/ada' })).toBe('${HOME}');
  });
});

describe('parseRalphrc: refused input', () => {
  it('refuses a value longer than a setting may be, before and after $VAR expansion, naming the key', () => {
    const long = 'x'.repeat(RALPHRC_MAX_VALUE_CHARS + 1);
    expect(errorOf(`ALLOWED_TOOLS="${long}"`)).toBe(
      `ALLOWED_TOOLS: the value is longer than ${RALPHRC_MAX_VALUE_CHARS} characters, the most a setting may hold; shorten it (a long list belongs in a file the command reads)`,
    );
    expect(parseRalphrc(`A='${'x'.repeat(RALPHRC_MAX_VALUE_CHARS)}'`).errors).toEqual([]);
    // Each reference is short, what they expand to is not: refused without building it.
    const half = 'y'.repeat(RALPHRC_MAX_VALUE_CHARS / 2);
    const bomb = parseRalphrc(`A='${half}'\nB="$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A$A"\nC="$A$A$A"\nD="$A$A"`);
    expect(bomb.errors).toEqual([
      { line: 2, message: expect.stringContaining('B: the value with its $VAR references expanded is longer than') as string },
      { line: 3, message: expect.stringContaining('C: the value with its $VAR references expanded is longer than') as string },
    ]);
    expect(bomb.entries.map((e) => e.key)).toEqual(['A', 'D']);
  });

  it.each([
    ['A=$(whoami)', 'command substitution'],
    ['A="$(rm -rf /)"', 'command substitution'],
    ['A=`id`', 'command substitution'],
    ['A="prefix `date` suffix"', 'command substitution'],
  ])('refuses %s: it is read, never executed', (line, words) => {
    const message = errorOf(line);
    expect(message).toContain(words);
    expect(message).toContain('never executed');
    expect(message.startsWith('A: ')).toBe(true);
  });

  it.each(['ALLOWED_TOOLS=(Write Read Edit)', 'ALLOWED_TOOLS=("Write" "Read")'])('refuses the bash array %s and shows the comma form', (line) => {
    const message = errorOf(line);
    expect(message).toContain('bash arrays are not supported');
    expect(message).toContain('ALLOWED_TOOLS="Write,Read,Bash(git *)"');
  });

  it.each(['A=hello world', 'CLAUDE_CODE_CMD=npx @anthropic-ai/claude-code'])('refuses the unquoted value with spaces in %s', (line) => {
    expect(errorOf(line)).toContain('unquoted value contains spaces; put the value in quotes');
  });

  it.each([
    ['1A=2', '"1A" is not a valid key name'],
    ['MY-KEY=1', '"MY-KEY" is not a valid key name'],
    ['A B=1', '"A B" is not a valid key name'],
    ['KEY =1', 'no spaces around ='],
    ['ключ=1', 'is not a valid key name'],
  ])('refuses the bad key name in %s', (line, words) => {
    expect(errorOf(line)).toContain(words);
  });

  it.each(['=value', 'just some text', 'export', 'MAX_CALLS_PER_HOUR'])('refuses %j, which is not KEY=value', (line) => {
    expect(errorOf(line)).toContain('expected KEY=value');
  });

  it.each([
    ["A='abc", 'unterminated single quote'],
    ['A="abc', 'unterminated double quote'],
    ['A="line one', 'values must fit on one line'],
    ['A="ends with escaped quote\\"', 'unterminated double quote'],
  ])('refuses %s', (line, words) => {
    expect(errorOf(line)).toContain(words);
  });

  it.each(['A="x"y', "A='x' y", 'A="x" "y"'])('refuses text after the closing quote in %s', (line) => {
    expect(errorOf(line)).toContain('unexpected text after the closing quote');
  });

  it('reports the line number of a multi-line double-quoted value', () => {
    const parsed = parseRalphrc('A=1\nB="first\nsecond"\nC=3');
    expect(parsed.errors[0]).toEqual({ line: 2, message: 'B: unterminated double quote (values must fit on one line)' });
  });
});
