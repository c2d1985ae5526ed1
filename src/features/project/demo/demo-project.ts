/**
 * The project `ralph demo` builds: a tiny calculator with a failing test, a
 * three-task plan, and a scripted mock agent that gets it right on its third
 * try — so a new user sees progress, a verify gate failing then passing, and a
 * clean exit, with no API key and no network.
 */
export const DEMO_VERIFY_COMMAND = 'node test.js';

export const DEMO_PLAN = `# Ralph Fix Plan (demo)

## High Priority
- [ ] Implement add(a, b) in calc.js
- [ ] Implement multiply(a, b) in calc.js
- [ ] Make \`node test.js\` pass

## Completed

## Notes
This project was created by \`ralph demo\`; a scripted mock agent works on it.
`;

const STUB_CALC = `// A calculator the demo agent completes.
module.exports = {};
`;

const TEST = `// The demo's verify command: Ralph runs it after every iteration.
const calc = require('./calc');
const failures = [];
const check = (name, got, want) => {
  if (got !== want) failures.push(\`\${name} should be \${want}, got \${got}\`);
};
for (const fn of ['add', 'multiply']) {
  if (typeof calc[fn] !== 'function') failures.push(\`\${fn} is not implemented\`);
}
if (typeof calc.add === 'function') check('add(2, 3)', calc.add(2, 3), 5);
if (typeof calc.multiply === 'function') check('multiply(3, 4)', calc.multiply(3, 4), 12);
if (failures.length > 0) {
  for (const f of failures) console.error(\`FAIL \${f}\`);
  process.exit(1);
}
console.log('PASS all 2 checks');
`;

export const DEMO_FILES: Readonly<Record<string, string>> = {
  'calc.js': STUB_CALC,
  'test.js': TEST,
  'README.md': '# Ralph demo\n\nCreated by `ralph demo`.\n',
};

function status(fields: Record<string, string>): string {
  return ['---RALPH_STATUS---', ...Object.entries(fields).map(([k, v]) => `${k}: ${v}`), '---END_RALPH_STATUS---'].join('\n');
}

/** The mock agent's three answers (the mock backend's script format plus file effects). */
export function demoResponses(): unknown[] {
  const common = { delay_ms: 700, input_tokens: 2400, output_tokens: 380, cost_usd: 0.0187 };
  return [
    {
      ...common,
      output: `Implemented add(a, b) in calc.js.\n\n${status({ STATUS: 'IN_PROGRESS', TASKS_COMPLETED_THIS_LOOP: '1', FILES_MODIFIED: '1', TESTS_STATUS: 'NOT_RUN', WORK_TYPE: 'IMPLEMENTATION', EXIT_SIGNAL: 'false', RECOMMENDATION: 'Implement multiply next' })}`,
      files: { 'calc.js': 'module.exports = {\n  add: (a, b) => a + b,\n};\n' },
      check_tasks: 1,
    },
    {
      ...common,
      output: `Implemented multiply(a, b) in calc.js; all tasks look done.\n\n${status({ STATUS: 'IN_PROGRESS', TASKS_COMPLETED_THIS_LOOP: '1', FILES_MODIFIED: '1', TESTS_STATUS: 'NOT_RUN', WORK_TYPE: 'IMPLEMENTATION', EXIT_SIGNAL: 'false', RECOMMENDATION: 'Run the tests' })}`,
      files: { 'calc.js': 'module.exports = {\n  add: (a, b) => a + b,\n  multiply: (a, b) => a + b,\n};\n' },
      check_tasks: 1,
    },
    {
      ...common,
      output: `The verify failure showed multiply() was adding; fixed it. node test.js passes.\n\n${status({ STATUS: 'COMPLETE', TASKS_COMPLETED_THIS_LOOP: '1', FILES_MODIFIED: '1', TESTS_STATUS: 'PASSING', WORK_TYPE: 'IMPLEMENTATION', EXIT_SIGNAL: 'true', RECOMMENDATION: 'Nothing left to do' })}`,
      files: { 'calc.js': 'module.exports = {\n  add: (a, b) => a + b,\n  multiply: (a, b) => a * b,\n};\n' },
      check_tasks: 1,
    },
  ];
}
