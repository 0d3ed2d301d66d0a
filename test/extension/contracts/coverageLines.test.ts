import assert from 'node:assert/strict';
import { CoverageCollector, toLcov } from '@tealworks/sdk/app';
import { assemble } from '@tealworks/sdk/teal';
import { coverageFor, coverageFromLcov, coverageSummary, gutterLines, lineHover, resolveLcovSource } from '../../../extension/src/contracts/coverageLines.js';

describe('extension contracts: coverage in the gutter (lcov → covered / missed lines)', () => {
  const lcov = [
    'TN:',
    'SF:app/approval.teal',
    'DA:1,2',
    'DA:2,0',
    'DA:4,1',
    'end_of_record',
    'TN:',
    'SF:app/contract.py',
    'DA:10,3',
    'DA:12,0',
    'end_of_record',
    '',
  ].join('\n');

  it('resolves relative lcov entries against the workspace, then the lcov folder and its parent', () => {
    const files = new Set(['/ws/app/approval.teal', '/proj/src/a.teal', '/other/x.teal']);
    const exists = (p: string) => files.has(p);
    assert.equal(resolveLcovSource('app/approval.teal', '/ws/coverage/lcov.info', ['/ws'], exists), '/ws/app/approval.teal');
    assert.equal(resolveLcovSource('src/a.teal', '/proj/coverage/lcov.info', ['/ws'], exists), '/proj/src/a.teal');
    assert.equal(resolveLcovSource('./x.teal', '/other/lcov.info', [], exists), '/other/x.teal');
    assert.equal(resolveLcovSource('/abs/y.teal', '/ws/coverage/lcov.info', ['/ws'], exists), '/abs/y.teal');
    assert.equal(resolveLcovSource('C:\\w\\z.teal', '/ws/lcov.info', ['/ws'], exists), 'C:/w/z.teal');
    // Not found anywhere: kept relative, matched by suffix.
    assert.equal(resolveLcovSource('../gone/z.teal', '/ws/coverage/lcov.info', ['/ws'], exists), '../gone/z.teal');
  });

  it('reads lcov into per-file hits, adds up several files, and finds a document by path or suffix', () => {
    const exists = (p: string) => p === '/ws/app/approval.teal';
    const cov = coverageFromLcov(
      [
        { path: '/ws/coverage/lcov.info', text: lcov },
        { path: '/ws/other/lcov.info', text: 'SF:/ws/app/approval.teal\nDA:2,5\nend_of_record\n' },
      ],
      ['/ws'],
      exists,
    );
    const teal = coverageFor(cov, '/ws/app/approval.teal')!;
    assert.deepEqual(
      [...teal],
      [
        [1, 2],
        [2, 5],
        [4, 1],
      ],
    );
    // contract.py did not exist on disk: its entry stays relative and matches by whole-segment suffix.
    assert.deepEqual(
      [...coverageFor(cov, '/somewhere/app/contract.py')!],
      [
        [10, 3],
        [12, 0],
      ],
    );
    assert.equal(coverageFor(cov, '/somewhere/myapp/contract.py'), undefined);
    assert.equal(coverageFor(cov, '/ws/app/clear.teal'), undefined);
  });

  it('marks covered and missed lines (0-based), leaving out lines past the end', () => {
    const hits = new Map([
      [4, 1],
      [1, 2],
      [2, 0],
      [9, 0],
    ]);
    assert.deepEqual(gutterLines(hits, 5), { covered: [0, 3], missed: [1] });
    assert.equal(coverageSummary(hits), 'Coverage 2/4 lines (50%)');
    assert.equal(coverageSummary(new Map()), 'Coverage 0/0 lines');
    assert.match(lineHover(3), /Covered: ran 3 times/);
    assert.match(lineHover(0), /Not covered/);
  });

  it("takes the SDK's own lcov: the lines a run executed are covered, the other arm's are missed", () => {
    const source = ['#pragma version 10', 'txn ApplicationID', 'bz create', 'int 1', 'return', 'create:', 'int 2', 'return', ''].join('\n');
    const asm = assemble(source);
    const collector = new CoverageCollector();
    collector.addProgram({ bytes: asm.program, pcMap: asm.sourceMap, sourceName: '/ws/app.teal' });
    // One run through the create arm: pcs of lines 2, 3, 7, 8.
    const pcsOn = (lines: number[]) => asm.sourceMap.filter((m) => lines.includes(m.use.line + 1)).map((m) => m.pc);
    collector.addRun(asm.program, pcsOn([2, 3, 7, 8]));
    const cov = coverageFromLcov([{ path: '/ws/coverage/lcov.info', text: toLcov(collector.report()) }], ['/ws'], () => false);
    const { covered, missed } = gutterLines(coverageFor(cov, '/ws/app.teal')!, source.split('\n').length);
    assert.deepEqual(covered, [1, 2, 6, 7]);
    assert.deepEqual(missed, [3, 4]);
  });
});
