import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { needShared } from '../../helpers/shared.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const SDK_TESTING = resolve(repoRoot, '../shared/data/fixtures/algorand-sdk-testing/features');

export function fixturesAvailable(ctx: Mocha.Context): boolean {
  needShared(ctx, SDK_TESTING);
  return existsSync(SDK_TESTING);
}

export function readFixture(path: string): string {
  return readFileSync(resolve(SDK_TESTING, path), 'utf8');
}

/** Every `Examples:` table of a feature file, rows keyed by the header cells. */
export function exampleTables(feature: string): Array<Array<Record<string, string>>> {
  const lines = feature.split('\n');
  const tables: Array<Array<Record<string, string>>> = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== 'Examples:') continue;
    const rows: string[][] = [];
    for (let j = i + 1; j < lines.length && lines[j]!.trim().startsWith('|'); j++) {
      rows.push(
        lines[j]!.trim()
          .slice(1, -1)
          .split('|')
          .map((c) => c.trim()),
      );
    }
    const [header, ...body] = rows;
    if (header) tables.push(body.map((r) => Object.fromEntries(header.map((h, k) => [h, r[k] ?? '']))));
  }
  return tables;
}
