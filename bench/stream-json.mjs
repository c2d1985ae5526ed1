// A Claude stream-json log of about `targetBytes`: text, tool calls and tool results, then the result event.
export function* streamJson(targetBytes, resultText) {
  let size = 0;
  const text = 'Running the test suite and reading the results. '.repeat(40);
  for (let i = 0; size < targetBytes; i += 1) {
    const event =
      i % 3 === 0
        ? { type: 'assistant', message: { id: `m${i}`, content: [{ type: 'text', text }] }, session_id: 's' }
        : i % 3 === 1
          ? { type: 'assistant', message: { id: `m${i}`, content: [{ type: 'tool_use', name: 'Bash', input: { command: `npm test -- --shard ${i}` } }] } }
          : { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `PASS src/test${i}.ts\n${'ok\n'.repeat(200)}` }] } };
    const line = `${JSON.stringify(event)}\n`;
    size += line.length;
    yield line;
  }
  yield `${JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: resultText, session_id: 's', total_cost_usd: 1.5, usage: { input_tokens: 1, output_tokens: 1 } })}\n`;
}
