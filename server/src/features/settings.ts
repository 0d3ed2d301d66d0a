// The `tealworks` settings the analysis features read (synchronised by the extension, or passed as
// initialization options by other clients). Unknown or mistyped values fall back to defaults.
import { templatesFromSettings, type TemplateInfo } from './templates.js';

/** How style lints (unused label, unreachable code, branch to the next line) are reported. */
export type StyleSeverity = 'off' | 'hint' | 'information' | 'warning';
export const STYLE_SEVERITIES: readonly StyleSeverity[] = ['off', 'hint', 'information', 'warning'];

export interface FeatureSettings {
  inlayHints: { stackDepth: boolean; pc: boolean; constants: boolean };
  format: { indent: number };
  lint: {
    /** Severity of style lints (default: hints, shown faded, never in the Problems count). */
    style: StyleSeverity;
    /** Also lint files whose header says a compiler generated them. */
    generatedCode: boolean;
  };
  /** Values for `TMPL_*` placeholders, used for diagnostics (`tealworks.templateVariables`). */
  templates: Map<string, TemplateInfo>;
}

export const DEFAULT_SETTINGS: FeatureSettings = {
  inlayHints: { stackDepth: true, pc: false, constants: true },
  format: { indent: 4 },
  lint: { style: 'hint', generatedCode: false },
  templates: new Map(),
};

const bool = (v: unknown, d: boolean) => (typeof v === 'boolean' ? v : d);

export function readSettings(section: unknown, base: FeatureSettings = DEFAULT_SETTINGS): FeatureSettings {
  const s = (section ?? {}) as {
    inlayHints?: Record<string, unknown>;
    format?: Record<string, unknown>;
    lint?: Record<string, unknown>;
    templateVariables?: unknown;
  };
  const lint = s.lint ?? {};
  const hints = s.inlayHints ?? {};
  const indent = s.format?.indent;
  return {
    inlayHints: {
      stackDepth: bool(hints.stackDepth, base.inlayHints.stackDepth),
      pc: bool(hints.pc, base.inlayHints.pc),
      constants: bool(hints.constants, base.inlayHints.constants),
    },
    format: { indent: typeof indent === 'number' && Number.isInteger(indent) && indent >= 0 && indent <= 16 ? indent : base.format.indent },
    lint: {
      style: (STYLE_SEVERITIES as readonly unknown[]).includes(lint.style) ? (lint.style as StyleSeverity) : base.lint.style,
      generatedCode: bool(lint.generatedCode, base.lint.generatedCode),
    },
    templates: s.templateVariables === undefined ? base.templates : templatesFromSettings(s.templateVariables),
  };
}
