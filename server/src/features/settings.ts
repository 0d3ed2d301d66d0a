// The `tealworks` settings the analysis features read (synchronised by the extension, or passed as
// initialization options by other clients). Unknown or mistyped values fall back to defaults.
export interface FeatureSettings {
  inlayHints: { stackDepth: boolean; pc: boolean; constants: boolean };
  format: { indent: number };
}

export const DEFAULT_SETTINGS: FeatureSettings = {
  inlayHints: { stackDepth: true, pc: false, constants: true },
  format: { indent: 4 },
};

const bool = (v: unknown, d: boolean) => (typeof v === 'boolean' ? v : d);

export function readSettings(section: unknown, base: FeatureSettings = DEFAULT_SETTINGS): FeatureSettings {
  const s = (section ?? {}) as { inlayHints?: Record<string, unknown>; format?: Record<string, unknown> };
  const hints = s.inlayHints ?? {};
  const indent = s.format?.indent;
  return {
    inlayHints: {
      stackDepth: bool(hints.stackDepth, base.inlayHints.stackDepth),
      pc: bool(hints.pc, base.inlayHints.pc),
      constants: bool(hints.constants, base.inlayHints.constants),
    },
    format: { indent: typeof indent === 'number' && Number.isInteger(indent) && indent >= 0 && indent <= 16 ? indent : base.format.indent },
  };
}
