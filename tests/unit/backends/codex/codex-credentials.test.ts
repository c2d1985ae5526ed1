import { describe, expect, it } from 'vitest';
import { codexCredentials, providerVariablesOfArgs, providerVariablesOfToml } from '../../../../src/backends/codex/codex-credentials.js';

describe("Codex's own credentials", () => {
  it('reads the variables the model providers of config.toml name, in every form the file may use', () => {
    const toml = [
      'model = "gpt-5"',
      'model_provider = "azure"',
      'model_providers.inline.env_key = "INLINE_KEY"',
      '',
      '[model_providers.azure]',
      'name = "Azure"',
      'env_key = "AZURE_OPENAI_API_KEY" # the key',
      'env_http_headers = { "X-Tenant" = "CORP_TENANT_TOKEN", "X-Other" = \'OTHER_VAR\' }',
      '',
      '[model_providers."corp llm"]',
      "env_key = 'CORP_LLM_KEY'",
      '',
      '[profiles.fast]',
      'env_key = "NOT_A_PROVIDER"',
      '[mcp_servers.x]',
      'env_key = "ALSO_NOT"',
    ].join('\n');
    expect(providerVariablesOfToml(toml).sort()).toEqual(['AZURE_OPENAI_API_KEY', 'CORP_LLM_KEY', 'CORP_TENANT_TOKEN', 'INLINE_KEY', 'OTHER_VAR']);
  });

  it('reads -c model_providers.<id>.env_key=… in its argument forms', () => {
    expect(
      providerVariablesOfArgs([
        '-c',
        'model_providers.a.env_key="A_KEY"',
        '--config=model_providers.b.env_key=B_KEY',
        '-cmodel_providers.c.env_key=C_KEY',
        '-c',
        'model="x"',
      ]),
    ).toEqual(['A_KEY', 'B_KEY', 'C_KEY']);
  });

  it("is CODEX_* and OPENAI_* and what Codex's configuration names, nothing else", () => {
    expect(codexCredentials('[model_providers.x]\nenv_key = "AZURE_OPENAI_API_KEY"\n', ['-c', 'model_providers.y.env_key=Y_KEY'])).toEqual({
      prefixes: ['CODEX_', 'OPENAI_'],
      names: ['AZURE_OPENAI_API_KEY', 'Y_KEY'],
    });
    expect(codexCredentials(undefined, [])).toEqual({ prefixes: ['CODEX_', 'OPENAI_'], names: [] });
  });
});
