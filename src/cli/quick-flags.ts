/**
 * The read-only commands' most polled shapes (`ralph-stats --json`,
 * `ralph-monitor --once`) are read without commander, which costs more to load
 * than they cost to answer. Only argv made of known switches, each at most
 * once, is read here; anything else (a value, a typo, help) goes to the parser,
 * so its checks and messages stay the only ones. Each command's unit test holds
 * this equal to its parser.
 */
export function quickFlags(argv: readonly string[], switches: readonly string[]): ReadonlySet<string> | undefined {
  const seen = new Set(argv);
  if (seen.size !== argv.length) return undefined;
  for (const arg of argv) if (!switches.includes(arg)) return undefined;
  return seen;
}
