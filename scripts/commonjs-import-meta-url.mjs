// Injected into the CommonJS builds of scripts/bundle.mjs, where `import.meta`
// does not exist: the file's own URL, as an ES module would see it
// (`node:url` is loaded by Node's start already).
import { pathToFileURL } from 'node:url';

export const importMetaUrl = pathToFileURL(__filename).href;
