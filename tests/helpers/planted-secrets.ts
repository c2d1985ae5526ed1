/**
 * Realistic credentials as users have them exported in their shells. Every
 * value is unique and long enough to grep for, so a test can prove that none
 * of them reached a process or a file.
 */
export const PLANTED_SECRETS: Readonly<Record<string, string>> = {
  GITHUB_TOKEN: 'ghp_PLANTEDgithubtoken0000000000000001',
  GH_TOKEN: 'ghp_PLANTEDghtoken00000000000000000002',
  GITLAB_TOKEN: 'glpat-PLANTEDgitlab000000003',
  NPM_TOKEN: 'npm_PLANTEDnpmtoken000000000000000000004',
  NODE_AUTH_TOKEN: 'PLANTED-node-auth-token-0005',
  AWS_ACCESS_KEY_ID: 'AKIAPLANTED000000006',
  AWS_SECRET_ACCESS_KEY: 'PLANTED/aws+secret/access/key/0007',
  AWS_SESSION_TOKEN: 'PLANTED-aws-session-token-0008',
  DATABASE_URL: 'postgres://app:PLANTEDdbpass0009@db.internal:5432/app',
  PGPASSWORD: 'PLANTED-pgpassword-0010',
  MYSQL_PWD: 'PLANTED-mysql-pwd-0011',
  REDIS_PASSWORD: 'PLANTED-redis-password-0012',
  SSH_AUTH_SOCK: '/tmp/ssh-PLANTED0013/agent.4242',
  GPG_AGENT_INFO: '/run/user/1000/gnupg/PLANTED0014:0:1',
  OPENAI_API_KEY: 'sk-PLANTEDopenai000000000000000015',
  GOOGLE_API_KEY: 'PLANTED-google-api-key-0016',
  GOOGLE_APPLICATION_CREDENTIALS: '/home/u/.config/gcloud/PLANTED0017.json',
  AZURE_CLIENT_SECRET: 'PLANTED-azure-client-secret-0018',
  AZURE_STORAGE_CONNECTION_STRING: 'DefaultEndpointsProtocol=https;AccountKey=PLANTED0019',
  STRIPE_SECRET_KEY: 'PLANTED-stripe-secret-0020',
  STRIPE_API_KEY: 'PLANTED-stripe-api-0021',
  SLACK_BOT_TOKEN: 'xoxb-PLANTED-slack-0000022',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/PLANTED0023',
  SENTRY_DSN: 'https://PLANTED0024@o1.ingest.sentry.io/1',
  SENTRY_AUTH_TOKEN: 'PLANTED-sentry-auth-0025',
  DOCKER_PASSWORD: 'PLANTED-docker-password-0026',
  DOCKER_AUTH_CONFIG: '{"auths":{"r":{"auth":"PLANTED0027"}}}',
  HEROKU_API_KEY: 'PLANTED-heroku-api-0028',
  TWILIO_AUTH_TOKEN: 'PLANTED-twilio-auth-0029',
  SENDGRID_API_KEY: 'PLANTED-sendgrid-0030',
  VAULT_TOKEN: 'PLANTED-vault-token-0031',
  CONSUL_HTTP_TOKEN: 'PLANTED-consul-token-0032',
  JWT_SECRET: 'PLANTED-jwt-secret-0033',
  SESSION_SECRET: 'PLANTED-session-secret-0034',
  SECRET_KEY_BASE: 'PLANTED-secret-key-base-0035',
  DJANGO_SECRET_KEY: 'PLANTED-django-secret-0036',
  ENCRYPTION_KEY: 'PLANTED-encryption-key-0037',
  PRIVATE_KEY: 'PLANTED-private-key-0038',
  SMTP_PASS: 'PLANTED-smtp-pass-0039',
  CODECOV_TOKEN: 'PLANTED-codecov-0040',
  CLOUDFLARE_API_TOKEN: 'PLANTED-cloudflare-0041',
  DIGITALOCEAN_ACCESS_TOKEN: 'PLANTED-digitalocean-0042',
  PYPI_PASSWORD: 'PLANTED-pypi-password-0043',
  TWINE_PASSWORD: 'PLANTED-twine-password-0044',
  GEM_HOST_API_KEY: 'PLANTED-gem-host-0045',
  CARGO_REGISTRY_TOKEN: 'PLANTED-cargo-0046',
  HF_TOKEN: 'PLANTED-huggingface-0047',
  MONGODB_URI: 'mongodb+srv://admin:PLANTEDmongo0048@cluster0.example.net/db',
  // Secrets inside variables whose names are harmless: the value gives them away.
  HTTPS_PROXY: 'http://proxyuser:PLANTEDproxy0049@proxy.corp:8080',
  MAVEN_OPTS: '-Xmx1g -Dhttps.proxyPassword=PLANTEDmaven0050 -Dfile.encoding=UTF-8',
  GRADLE_OPTS: '-Dorg.gradle.daemon=false -Dproxy.password=PLANTEDgradle0051',
  JAVA_TOOL_OPTIONS: '-Djavax.net.ssl.trustStorePassword=PLANTEDjava0052',
  GOFLAGS: '-mod=mod -auth.token=PLANTEDgoflags0053',
  DEPLOY_HOOK: 'ghp_PLANTEDdeployhook00000000000000054',
};

/** The parts of PLANTED_SECRETS that must never show up anywhere. */
export const PLANTED_VALUES: readonly string[] = Object.values(PLANTED_SECRETS).map((value) => {
  const marker = /PLANTED[A-Za-z0-9/+-]*?\d{4}/.exec(value);
  if (!marker) throw new Error(`planted value without a marker: ${value}`);
  return marker[0];
});

/** Which planted markers occur in `text`. */
export function plantedIn(text: string): string[] {
  return PLANTED_VALUES.filter((marker) => text.includes(marker));
}
