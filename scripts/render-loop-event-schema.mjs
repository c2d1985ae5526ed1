// Writes docs/schemas/loop-event.schema.json from the LoopEvent union (scripts/loop-event-schema.mjs).
// tests/unit/loop-event-schema.test.ts fails when the file is not current; run this after changing the events.
import { readFileSync, writeFileSync } from 'node:fs';
import { SCHEMA_PATH, renderLoopEventSchema } from './loop-event-schema.mjs';

let before = '';
try {
  before = readFileSync(SCHEMA_PATH, 'utf8');
} catch {
  // Not written yet.
}
const after = await renderLoopEventSchema();
if (after !== before) writeFileSync(SCHEMA_PATH, after);
process.stdout.write(after === before ? 'docs/schemas/loop-event.schema.json is current\n' : 'docs/schemas/loop-event.schema.json rewritten\n');
