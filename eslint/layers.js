// The options of the `ralph/layers` rule, built from the one table of layers
// (eslint/layer-table.js): each layer's allow-list of layers, and what it may not load from
// outside src/. There are no exceptions: an import the table does not allow fails lint.
import { LAYER_TABLE, PACKAGE_RULES } from './layer-table.js';

const names = LAYER_TABLE.map((layer) => layer.name);

/** Why an arrow is refused: the layer's own allow-list, in the words of the doc. */
function allowListWhy(layer) {
  const allowed = layer.imports.length === 0 ? 'nothing else' : layer.imports.join(', ');
  return `${layer.paths.join(' ')} may import only ${allowed} (eslint/layer-table.js, docs/architecture.md). Move the shared code down to a layer both may import, or pass it in through a port.`;
}

export const LAYERS = Object.fromEntries(
  LAYER_TABLE.map((layer) => {
    const forbidden = names.filter((name) => name !== layer.name && !layer.imports.includes(name));
    const restrictions = [{ layers: forbidden, unknownLayers: true, lazyLayers: layer.loads ?? [], why: allowListWhy(layer) }];
    const packages = PACKAGE_RULES[layer.name];
    if (packages !== undefined) restrictions.push(packages);
    return [layer.name, restrictions];
  }),
);

/** Where each layer lives, for the rule to resolve a path to its layer. */
export const LAYER_PATHS = LAYER_TABLE.map((layer) => ({ name: layer.name, paths: layer.paths }));
