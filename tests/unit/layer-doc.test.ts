import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LAYER_TABLE, replaceLayerSection } from '../../eslint/layer-table.js';

/**
 * One table says which layer may import which (eslint/layer-table.js): lint builds its rule from
 * it, and docs/architecture.md's layer section is rendered from it. These tests keep the doc
 * current and the table a drawing: every arrow points down, every folder of src/ has a row.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('the layer table', () => {
  it('docs/architecture.md shows the table lint enforces (run scripts/render-layer-doc.mjs after a change)', () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    expect(doc).toContain('<!-- layer-table:start -->');
    expect(replaceLayerSection(doc)).toBe(doc);
  });

  it('a layer imports only layers drawn below it, so no arrow runs back up and there is no circle', () => {
    const order = LAYER_TABLE.map((layer) => layer.name);
    for (const [index, layer] of LAYER_TABLE.entries()) {
      for (const target of layer.imports) {
        expect(order.indexOf(target), `${layer.name} → ${target}`).toBeGreaterThan(index);
      }
    }
  });

  it('every folder and loose file of src/ belongs to a row', () => {
    const paths = new Set(LAYER_TABLE.flatMap((layer) => layer.paths));
    for (const entry of readdirSync(join(ROOT, 'src'), { withFileTypes: true })) {
      const path = entry.isDirectory() ? `src/${entry.name}/` : `src/${entry.name}`;
      expect(paths.has(path), `${path} has no row in eslint/layer-table.js`).toBe(true);
    }
  });

  it('the arrows the review found running back up are not in the table', () => {
    const allows = (from: string, to: string): boolean => LAYER_TABLE.find((layer) => layer.name === from)?.imports.includes(to) ?? false;
    for (const [from, to] of [
      ['ui', 'features'],
      ['state', 'engine'],
      ['infra', 'engine'],
      ['state', 'infra'],
      ['core', 'config'],
      ['config', 'backends'],
      ['config', 'state'],
      ['engine', 'checkpoints'],
    ] as const) {
      expect(allows(from, to), `${from} → ${to}`).toBe(false);
    }
  });
});
