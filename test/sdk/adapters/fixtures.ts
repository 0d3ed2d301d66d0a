import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromBase64 } from '../../../sdk/src/encoding/base64.js';
import { needShared } from '../../helpers/shared.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const SDK_TESTING = resolve(repoRoot, '../shared/data/fixtures/algorand-sdk-testing/features');
export const RESOURCES = join(SDK_TESTING, 'resources');

export function fixturesAvailable(): boolean {
  return existsSync(RESOURCES);
}

/** Skips the suite with a visible note when the shared data is not mounted. */
export function requireFixtures(ctx: Mocha.Context): void {
  needShared(ctx, RESOURCES);
}

export interface RecordedBody {
  bytes: Uint8Array;
  contentType: string;
  text?: string;
}

/** A recorded response: `.base64` files hold msgpack, everything else JSON. */
export function loadRecorded(folder: string, file: string): RecordedBody {
  const raw = readFileSync(join(RESOURCES, folder, file), 'utf8');
  if (file.endsWith('.base64')) return { bytes: fromBase64(raw.replace(/\s+/g, '')), contentType: 'application/msgpack' };
  return { bytes: new TextEncoder().encode(raw), contentType: 'application/json', text: raw };
}

export interface ScenarioOutline {
  name: string;
  steps: string[];
  rows: Record<string, string>[];
}

/** Minimal Gherkin reader: scenario outlines with their steps and example tables. */
export function readFeature(relPath: string): ScenarioOutline[] {
  const text = readFileSync(join(SDK_TESTING, relPath), 'utf8');
  const out: ScenarioOutline[] = [];
  let current: ScenarioOutline | undefined;
  let header: string[] | undefined;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    const m = /^Scenario(?: Outline)?:\s*(.*)$/.exec(line);
    if (m) {
      current = { name: m[1]!.trim(), steps: [], rows: [] };
      out.push(current);
      header = undefined;
      continue;
    }
    if (!current) continue;
    if (/^Examples:/.test(line)) {
      header = undefined;
      continue;
    }
    if (line.startsWith('|')) {
      const cells = line
        .slice(1, line.lastIndexOf('|'))
        .split('|')
        .map((c) => c.trim());
      if (!header) header = cells;
      else current.rows.push(Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])));
    } else if (/^(Given|When|Then|And)\b/.test(line)) current.steps.push(line);
  }
  return out;
}
