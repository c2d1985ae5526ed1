/**
 * An attacker's list of credentials as people really keep them: under names that do not say
 * "token" (DEPLOY_CREDS, PASS, KEY, DOCKERHUB_PAT), inside values of harmless-looking names
 * (a JDBC URL, an Azure connection string, a header, a URL with a token as its user), and in
 * the formats of the big providers — and beside them the harmless variables every agent needs,
 * which must pass unchanged. `secret` is the part that must reach nothing.
 */
export interface AdversarialSecret {
  name: string;
  value: string;
  /** What must not reach the agent (the whole value unless only a part of it is secret). */
  secret: string;
}

const whole = (name: string, value: string): AdversarialSecret => ({ name, value, secret: value });

export const ADVERSARIAL_SECRETS: readonly AdversarialSecret[] = [
  whole('DEPLOY_CREDS', 'deploy:Xq7pL2mN9vR4tK8w'),
  whole('PASS', 'hunter2-correct-horse'),
  whole('KEY', 'k3y-9f8e7d6c5b4a'),
  whole('DOCKERHUB_PAT', 'dckr_pat_2xYqLmN8vR4tK9wZp1sT5uV'),
  { name: 'DB_JDBC', value: 'jdbc:postgresql://db.internal:5432/app?user=app&password=Jd8cPassw0rd&ssl=true', secret: 'Jd8cPassw0rd' },
  {
    name: 'STORAGE',
    value: 'DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=q8Zr5Lm2Xv9Tn4Kp7Wb3Yc6Hd1Fs0Gj==;EndpointSuffix=core.windows.net',
    secret: 'q8Zr5Lm2Xv9Tn4Kp7Wb3Yc6Hd1Fs0Gj==',
  },
  { name: 'API_HEADER', value: 'Basic ZGVwbG95OnMzY3JldFBhc3M=', secret: 'ZGVwbG95OnMzY3JldFBhc3M=' },
  { name: 'EXTRA_HEADER', value: 'Authorization: Bearer Zx81kLmQ2vR9tN4pW7yB', secret: 'Zx81kLmQ2vR9tN4pW7yB' },
  { name: 'REGISTRY', value: 'https://ci-bot:Rg7pQ2xL9mN4@registry.corp.example/npm/', secret: 'Rg7pQ2xL9mN4' },
  { name: 'MIRROR_URL', value: 'https://Tk9xL2mQ7vR4pN8wZ3yB5cD1@git.corp.example/repo.git', secret: 'Tk9xL2mQ7vR4pN8wZ3yB5cD1' },
  { name: 'LEGACY_DB', value: 'Driver={ODBC};Server=sql1;Uid=sa;Pwd=Od8cS3cretX;', secret: 'Od8cS3cretX' },
  { name: 'MYSQL_OPTS', value: '--user=root --password=My5qlPw0rd99', secret: 'My5qlPw0rd99' },
  { name: 'SERVICE_JSON', value: '{"private_key":"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEF\\n"}', secret: 'MIIEvQIBADANBgkqhkiG9w0BAQEF' },
  whole('GH', 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ng0000001'),
  whole('SLACK', 'xoxb-123456789012-abcdefABCDEF12345'),
  whole('AWS_ID', 'AKIAQ7XL2MN4VR9TPK8W'),
  whole('OPENAI', 'sk-proj-Tq8Lm2Xv9Rn4Kp7Wb3Yc6Hd1Fs0Gj5Ze'),
  whole('STRIPE', 'sk_live_51Hq8Lm2Xv9Rn4Kp7Wb3Yc6'),
  whole('GOOGLE', 'AIzaSyQ8Lm2Xv9Rn4Kp7Wb3Yc6Hd1Fs0Gj5ZeA'),
  whole('HUGGING', 'hf_Q8Lm2Xv9Rn4Kp7Wb3Yc6Hd1Fs0Gj5ZeAbC'),
  { name: 'NPMRC_LINE', value: '//registry.npmjs.org/:_authToken=npm_Q8Lm2Xv9Rn4Kp7Wb3Yc6Hd1Fs0Gj5ZeAbCd', secret: 'npm_Q8Lm2Xv9Rn4Kp7Wb3Yc6Hd1Fs0Gj5ZeAbCd' },
  whole('GITLAB', 'glpat-Q8Lm2Xv9Rn4Kp7Wb3Yc'),
  whole('ID', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZXBsb3kifQ.Q8Lm2Xv9Rn4Kp7Wb3Yc6Hd'),
  whole('MASTER', 'Q8Lm2Xv9Rn4Kp7Wb3Yc6Hd1Fs0Gj5Ze'),
  whole('LICENSE', 'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC'),
  whole('SESSIONID', 'a1b2c3d4e5f6'),
  whole('SMTP_PW', 'mailpw-2024'),
  whole('XSRF_COOKIE', 'cookie-value-123'),
  whole('APP_PRIVATE', 'private-thing-9876'),
  { name: 'SENTRY', value: 'https://f3a9c1e7b2d84f6a9c0e1b7d3a5f8c2e@o1.ingest.sentry.io/42', secret: 'f3a9c1e7b2d84f6a9c0e1b7d3a5f8c2e' },
  whole('VAULT', 'hvs.CAESIQ8Lm2Xv9Rn4Kp7Wb3Yc6Hd1Fs0'),
  whole('BACKUP_OTP', '493021'),
  whole('CI_JOB_JWT', 'job-jwt-value-0042'),
  { name: 'REDIS', value: 'redis://:R3d1sPassw0rd@cache:6379', secret: 'R3d1sPassw0rd' },
  { name: 'PG_CONN', value: 'host=db user=app password=Pg8Passw0rdX dbname=app', secret: 'Pg8Passw0rdX' },
  whole('KUBECONFIG', '/home/u/.kube/config-prod'),
  whole('GIT_ASKPASS', '/usr/lib/git-core/git-gui--askpass'),
  whole('TF_VAR_db_password', 'tfvar-pw-7788'),
  {
    name: 'AZ_SAS',
    value: 'https://acme.blob.core.windows.net/c?sv=2022-11-02&ss=b&sig=Kx7Lm2Xv9Rn4Kp7Wb3Yc6Hd1Fs0%3D',
    secret: 'Kx7Lm2Xv9Rn4Kp7Wb3Yc6Hd1Fs0%3D',
  },
  whole('SECRETS_JSON', '{"db":"s3kr1t-json-99"}'),
];

/** Variables an agent needs, some of whose names or values look a little like credentials: they must pass unchanged. */
export const HARMLESS_VARIABLES: Readonly<Record<string, string>> = {
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: '/home/u',
  PWD: '/home/u/src/Q8Lm2Xv9Rn4Kp7Wb3Yc6app',
  OLDPWD: '/home/u',
  LANG: 'en_US.UTF-8',
  LC_ALL: 'en_US.UTF-8',
  TERM: 'xterm-256color',
  EDITOR: 'vim',
  NODE_ENV: 'development',
  CI: 'true',
  TZ: 'Europe/Berlin',
  USER: 'u',
  SHELL: '/bin/bash',
  TMPDIR: '/tmp',
  COLORTERM: 'truecolor',
  XDG_SESSION_TYPE: 'wayland',
  XDG_CONFIG_HOME: '/home/u/.config',
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
  GIT_AUTHOR_NAME: 'U Ser',
  KEYBOARD_LAYOUT: 'de',
  NODE_OPTIONS: '--max-old-space-size=4096',
  JAVA_HOME: '/usr/lib/jvm/java-17-openjdk-amd64',
  GOPRIVATE: 'github.com/acme/*',
  TOKENIZERS_PARALLELISM: 'false',
  HTTPS_PROXY: 'http://proxy.corp:8080',
  GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
  DISPLAY: ':0',
  GIT_SSH_COMMAND: 'ssh -o StrictHostKeyChecking=accept-new',
  MY_PROJECT_MODE: 'ThisIsALongCamelCaseIdentifier2024',
};

/** The whole adversarial environment: every secret and every harmless variable. */
export function adversarialEnv(): Record<string, string> {
  return { ...Object.fromEntries(ADVERSARIAL_SECRETS.map((s) => [s.name, s.value])), ...HARMLESS_VARIABLES };
}

/** The secrets of the list whose secret part occurs in `text`, by name. */
export function adversarialLeaks(text: string): string[] {
  return ADVERSARIAL_SECRETS.filter((s) => text.includes(s.secret)).map((s) => s.name);
}
