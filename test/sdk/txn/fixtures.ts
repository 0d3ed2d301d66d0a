import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ed25519KeyPair } from '../../../sdk/src/crypto/ed25519.js';
import { seedFromMnemonic } from '../../../sdk/src/crypto/mnemonic.js';
import { needShared } from '../../helpers/shared.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const sdkTesting = resolve(repoRoot, '../shared/data/fixtures/algorand-sdk-testing/features');

export function fixturesPresent(): boolean {
  return existsSync(sdkTesting);
}

/** Skips the calling test (visibly) when the shared fixtures are not mounted. */
export function requireFixtures(ctx: Mocha.Context): void {
  needShared(ctx, sdkTesting);
}

export function keyFromMnemonic(mnemonic: string): Ed25519KeyPair {
  return Ed25519KeyPair.fromSeed(seedFromMnemonic(mnemonic));
}

export function readResource(relative: string): Uint8Array {
  return new Uint8Array(readFileSync(resolve(sdkTesting, 'resources', relative)));
}

export interface Outline {
  title: string;
  steps: string[];
  examples: Record<string, string>[];
}

/** The Scenario Outlines of a feature file with their Examples rows (header cells as keys). */
export function readOutlines(feature: string): Outline[] {
  const text = readFileSync(resolve(sdkTesting, 'unit', feature), 'utf8');
  const outlines: Outline[] = [];
  let current: Outline | undefined;
  let header: string[] | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('Scenario')) {
      current = { title: line.replace(/^Scenario( Outline)?:\s*/, ''), steps: [], examples: [] };
      outlines.push(current);
      header = undefined;
    } else if (!current || line.startsWith('#') || line === '') {
      continue;
    } else if (line.startsWith('Examples:')) {
      header = undefined;
    } else if (line.startsWith('|')) {
      const cells = line
        .slice(1, line.lastIndexOf('|'))
        .split('|')
        .map((c) => c.trim());
      if (!header) header = cells;
      else current.examples.push(Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])));
    } else {
      current.steps.push(line);
    }
  }
  return outlines;
}

export function outline(feature: string, title: string): Outline {
  const found = readOutlines(feature).find((o) => o.title.startsWith(title));
  if (!found) throw new Error(`no scenario "${title}" in ${feature}`);
  return found;
}
