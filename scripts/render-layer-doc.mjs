// Writes the layer table of docs/architecture.md (between its layer-table markers) from
// eslint/layer-table.js, the one table lint enforces. tests/unit/layer-doc.test.ts fails when the
// doc is not current; run this after changing the table.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replaceLayerSection } from '../eslint/layer-table.js';

const doc = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'architecture.md');
const before = readFileSync(doc, 'utf8');
const after = replaceLayerSection(before);
if (after !== before) writeFileSync(doc, after);
process.stdout.write(after === before ? 'docs/architecture.md: the layer table is current\n' : 'docs/architecture.md: layer table rewritten\n');
