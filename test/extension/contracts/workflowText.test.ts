import assert from 'node:assert/strict';
import { workflowEventLine } from '../../../extension/src/contracts/workflowText.js';

describe('extension contracts: workflow output lines', () => {
  it('describes start, steps (with failure details) and the end', () => {
    assert.equal(
      workflowEventLine({ type: 'start', workflow: '/w/tealworks.yaml', network: 'devnet', steps: 2, checkpoint: '/w/.tealworks/x.json' }),
      '▶ /w/tealworks.yaml on devnet: 2 steps (checkpoint /w/.tealworks/x.json)',
    );
    assert.equal(workflowEventLine({ type: 'step-start', index: 0, id: 'deploy', kind: 'deploy' }), '  … deploy (deploy)');
    const failed = workflowEventLine({
      type: 'step-end',
      step: {
        index: 1,
        id: 'inc',
        kind: 'call',
        status: 'failed',
        detail: '',
        durationMs: 12,
        error: { message: 'assert failed', position: { file: 'w', line: 3, column: 5 }, reportText: 'Simulation: would FAIL\n  at line 4' },
      },
    });
    assert.equal(failed, '  ✗ inc: failed (12 ms)\n      assert failed\n      Simulation: would FAIL\n        at line 4');
    assert.equal(
      workflowEventLine({ type: 'end', summary: { ok: true, workflow: 'w', network: 'devnet', steps: [], checkpoint: '', outputs: {} } }),
      '■ passed',
    );
  });
});
