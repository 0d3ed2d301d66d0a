import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assembleCollect, formatDiagnostic, type TealDiagnostic } from '../../../../sdk/src/teal/index.js';

interface Expect {
  line: number;
  col: number;
  msg: string;
}
interface Vector {
  test: string;
  version: number;
  source?: string;
  expect?: Expect[];
  same?: string[];
}

const here = dirname(fileURLToPath(import.meta.url));
const { vectors } = JSON.parse(readFileSync(join(here, 'fixtures/go-assembler-vectors.json'), 'utf8')) as { vectors: Vector[] };

/** The reference's test matcher: `...` at either end is a wildcard. */
function matches(actual: string, expected: string): boolean {
  if (expected.startsWith('...') && expected.endsWith('...')) return actual.includes(expected.slice(3, -3));
  if (expected.startsWith('...')) return (actual + '^').includes(expected.slice(3) + '^');
  if (expected.endsWith('...')) return ('^' + actual).includes('^' + expected.slice(0, -3));
  return actual === expected;
}

/** Where the reference would report: it puts errors from macro bodies at the `#define`. */
function refPos(d: TealDiagnostic): { line: number; col: number } {
  const at = d.definition ?? d.range;
  return { line: at.line + 1, col: at.column };
}

function opts(v: Vector) {
  return v.version === -1 ? {} : { version: v.version };
}

function hexOrErrors(src: string, v: Vector): string {
  const r = assembleCollect(src, opts(v));
  return r.result ? Buffer.from(r.result.program).toString('hex') : 'errors: ' + r.diagnostics.map(formatDiagnostic).join(' | ');
}

describe('teal assembler: go-algorand assembler test vectors', () => {
  const byTest = new Map<string, Vector[]>();
  for (const v of vectors) byTest.set(v.test, [...(byTest.get(v.test) ?? []), v]);

  it('has the extracted vectors', () => assert.ok(vectors.length > 200));

  for (const [test, list] of byTest) {
    it(`${test} (${list.length})`, () => {
      for (const v of list) {
        if (v.same) {
          const first = hexOrErrors(v.same[0]!, v);
          assert.ok(!first.startsWith('errors'), first);
          for (const s of v.same.slice(1)) assert.equal(hexOrErrors(s, v), first, s);
          continue;
        }
        const r = assembleCollect(v.source!, opts(v));
        const errors = r.diagnostics.filter((d) => d.severity === 'error');
        const ctx = `${JSON.stringify(v.source)} v${v.version}: ${errors.map(formatDiagnostic).join(' | ')}`;
        if (v.expect!.length === 0) {
          assert.ok(r.result, ctx);
          continue;
        }
        assert.equal(r.result, undefined, ctx);
        for (const e of v.expect!) {
          if (e.line === 0) {
            assert.ok(
              errors.some((d) => matches(d.message, e.msg)),
              `${e.msg} — ${ctx}`,
            );
            continue;
          }
          const found = errors.find((d) => refPos(d).line === e.line);
          assert.ok(found, `no error on line ${e.line} (${e.msg}) — ${ctx}`);
          if (e.col !== 0) assert.equal(refPos(found).col, e.col, `column of ${e.msg} — ${ctx}`);
          assert.ok(matches(found.message, e.msg), `"${found.message}" vs "${e.msg}" — ${ctx}`);
        }
      }
    });
  }
});
