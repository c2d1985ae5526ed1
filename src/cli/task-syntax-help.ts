/** The one-line task syntax of `ralph run`, key by key. */
export const TASK_SYNTAX_HELP = `
Task syntax (one quoted argument; parts separated by ::):
  [>>]TASK [:: verify:"COMMAND" [KEY:VALUE ...]] [:: "criterion"] [:: name] ...
  TASK               what to do: a name such as fix-auth, or free text
  verify:"COMMAND"   shell command that must pass; the keys after it, in the same part:
    max:N              failed verify attempts before escalation (1-100, default 5)
    timeout:SECONDS    time limit of one verify run (1-3600, default 300)
    checkpoint:true    git checkpoint before each iteration
    rollback:true      restore the checkpoint when verification fails
    loop:true          keep iterating until the command passes or max runs out;
                       without it the task gets one attempt and stops on a failure (exit 6)
    workingDir:DIR     directory the verify command runs in
    :fast :full :extended   presets: 1 attempt/30 s, 5/300 s, 10/600 s
  "text" or name     a quality criterion, passed to the agent as a requirement
Without verify:, the task runs like a plan: until the agent reports it done or a limit stops it.
`;
