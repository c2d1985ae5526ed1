import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPrdFiles, readProjectFiles } from '../../../../../src/features/project/enable/project-files.js';
import { tempDir } from '../../../../helpers/temp-dir.js';

function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

describe('readProjectFiles', () => {
  it('reads manifests, only notes lock files, and ignores folders of the same name', () => {
    const dir = tempDir();
    write(dir, { 'package.json': '{"name":"x"}', 'yarn.lock': 'huge lock file', 'go.mod/inner': '' });
    expect([...readProjectFiles(dir).entries()]).toEqual([
      ['package.json', '{"name":"x"}'],
      ['yarn.lock', ''],
    ]);
  });
});

describe('findPrdFiles', () => {
  it('finds PRD-like documents at the top and in docs/, specs/, requirements/ (one level deep)', () => {
    const dir = tempDir();
    write(dir, {
      'PRD.md': '',
      'notes.md': '',
      'docs/product-requirements.md': '',
      'docs/api/spec.txt': '',
      'docs/api/deeper/spec.md': '',
      'specs/billing-specification.md': '',
      'requirements/prd-v2.md': '',
      'node_modules/pkg/spec.md': '',
      'src/spec.md': '',
      'docs/prd.pdf': '',
    });
    expect(findPrdFiles(dir)).toEqual([
      'PRD.md',
      'docs/api/spec.txt',
      'docs/product-requirements.md',
      'requirements/prd-v2.md',
      'specs/billing-specification.md',
    ]);
  });
});
