// Types of eslint/layer-table.js, for the tests that read the table (the lint config reads it as plain JavaScript).
export interface LayerRow {
  name: string;
  paths: string[];
  imports: string[];
  what: string;
}
export interface PackageRule {
  packages: string[];
  builtinsExcept?: string[];
  why: string;
}
export const LAYER_TABLE: LayerRow[];
export const EFFECT_PACKAGES: string[];
export const EFFECT_BUILTINS: string[];
export const PACKAGE_RULES: Record<string, PackageRule>;
export function renderLayerDoc(table?: LayerRow[]): string;
export function replaceLayerSection(doc: string, table?: LayerRow[]): string;
