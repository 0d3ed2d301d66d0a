import assert from 'node:assert/strict';
import { analyze, analyzeSteps, assembleCollect, type Analysis } from '../../../../sdk/src/teal/index.js';
import { MAX_EXPANDED_TOKENS, MAX_MACRO_DEPTH, MAX_PROGRAM_BYTES } from '../../../../sdk/src/teal/assembler/assembler.js';
import { exponentialMacros, forwardChain, longChain, manyLabels, wideMacro } from '../../../helpers/pathological.js';

/**
 * Runs `f`, asserting it grows the heap by less than 200 MB. The work itself is bounded by the
 * diagnostic each test expects (the assembler stops at its size/depth limits); mocha's timeout is
 * only the hang guard, so nothing here depends on the machine's speed.
 */
function bounded<T>(what: string, f: () => T): T {
  const before = process.memoryUsage();
  const out = f();
  const after = process.memoryUsage();
  const grown = Math.max(after.heapUsed - before.heapUsed, after.rss - before.rss);
  assert.ok(grown < 200 * 1024 * 1024, `${what}: memory grew by ${(grown / 1048576).toFixed(0)} MB`);
  return out;
}

describe('teal: bounded work for pathological programs', function () {
  this.timeout(30_000);

  it('exponential macros (32 levels, 2^32 statements if expanded) give a size diagnostic at the use site', () => {
    const src = exponentialMacros(32);
    for (const [name, run] of [
      ['assemble', () => assembleCollect(src).diagnostics],
      ['analyze', () => analyze(src).diagnostics],
    ] as const) {
      const diags = bounded(name, run);
      const d = diags.find((x) => /macro expansion too large/.test(x.message));
      assert.ok(d, `${name}: ${JSON.stringify(diags.slice(0, 3))}`);
      assert.match(d.message, new RegExp(`more than ${MAX_EXPANDED_TOKENS}`));
      assert.equal(d.range.line, 34, 'reported at the use of m32');
    }
  });

  it('a wide macro used 2,000 times gives a diagnostic, not an 8 MB program', () => {
    const src = wideMacro(2000, 2000);
    const r = bounded('assemble', () => assembleCollect(src));
    assert.equal(r.result, undefined);
    assert.ok(r.diagnostics.some((d) => /macro expansion too large/.test(d.message)));
    const a = bounded('analyze', () => analyze(src));
    assert.ok(a.diagnostics.some((d) => /macro expansion too large/.test(d.message)));
  });

  it('a program over the maximum program size is refused with the node-style error', () => {
    // 200 uses of a 100-statement macro: within the expansion budget, far over the size limit.
    const r = assembleCollect(wideMacro(100, 200));
    assert.equal(r.result, undefined);
    const d = r.diagnostics.find((x) => /^program too long\. \(\d+ > \d+\)$/.test(x.message));
    assert.ok(d, JSON.stringify(r.diagnostics.slice(0, 2)));
    assert.match(d.message, new RegExp(`> ${MAX_PROGRAM_BYTES}\\)$`));
  });

  it('10,000 macros chained in reverse order: no stack overflow, a depth diagnostic at the use', () => {
    const src = longChain(10_000);
    for (const run of [() => assembleCollect(src).diagnostics, () => analyze(src).diagnostics]) {
      const diags = bounded('chain', run);
      const d = diags.find((x) => /macro expansion too deep/.test(x.message));
      assert.ok(d, JSON.stringify(diags.slice(0, 3)));
      assert.match(d.message, new RegExp(`more than ${MAX_MACRO_DEPTH} nested macros \\(c0 -> … -> c${MAX_MACRO_DEPTH}\\)`));
      assert.equal(d.range.line, 10_002);
    }
  });

  it('50,000 chained definitions in forward order are linear; a short chain within the limit still assembles', () => {
    bounded('forward chain', () => assembleCollect(forwardChain(50_000)));
    const ok = assembleCollect(longChain(MAX_MACRO_DEPTH - 1));
    assert.ok(ok.result, JSON.stringify(ok.diagnostics.slice(0, 2)));
  });

  it('cycles are still found, with the reference wording, through long chains', () => {
    const lines = ['#pragma version 10'];
    for (let i = 0; i < 5000; i++) lines.push(`#define k${i} k${i + 1}`);
    lines.push('#define k5000 k0');
    const diags = bounded('cycle', () => assembleCollect(lines.join('\n') + '\nint 1\n').diagnostics);
    const d = diags.find((x) => /macro expansion cycle discovered/.test(x.message));
    assert.ok(d);
    assert.match(d.message, /^macro expansion cycle discovered: k5000 -> k0 -> k1 -> .* -> k4999 -> k5000$/);
  });

  it('50,000 labels analyse within the guard', () => {
    bounded('labels', () => analyze(manyLabels(50_000)));
  });

  it('analyzeSteps pauses between bounded slices and returns exactly what analyze returns', () => {
    for (const [name, src] of [
      ['exponential macros', exponentialMacros(24)],
      ['a wide macro', wideMacro(200, 200)],
      ['a long chain', longChain(2000)],
      ['many labels', manyLabels(5000)],
      ['a small program', '#pragma version 10\n#define two int 2\ntwo; two; +\nreturn\n'],
    ] as const) {
      const steps = analyzeSteps(src);
      let pauses = 0;
      let r = steps.next();
      for (; !r.done; r = steps.next()) pauses++;
      const stepped: Analysis = r.value;
      assert.deepEqual(stepped, analyze(src), name);
      if (src.length > 10_000) assert.ok(pauses >= 2, `${name}: only ${pauses} pauses`);
    }
  });
});
