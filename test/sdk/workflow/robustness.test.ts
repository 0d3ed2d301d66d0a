import { strict as assert } from 'node:assert';
import { ExprError } from '../../../sdk/src/workflow/errors.js';
import { evaluate, parseExpression, parseTemplate, type ExprScope } from '../../../sdk/src/workflow/expr.js';
import { parseWorkflow } from '../../../sdk/src/workflow/file.js';

// Deterministic pseudo-random source so failures reproduce.
function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const PIECES = [
  'steps',
  '.',
  'a',
  '[',
  ']',
  '(',
  ')',
  "'x'",
  '"y"',
  '1',
  '0x',
  '_',
  '==',
  '!=',
  '<',
  '&&',
  '||',
  '!',
  ',',
  'len',
  'itob',
  'hex',
  ' ',
  '${{',
  '}}',
  '-',
  'null',
  'true',
  '\\',
  '@',
];
const scope: ExprScope = { steps: { a: { b: 1n } }, env: {} };

describe('workflow robustness', () => {
  it('expressions: any input parses or fails with ExprError, never anything else', () => {
    const r = rng(7);
    for (let i = 0; i < 2000; i++) {
      let src = '';
      const n = 1 + Math.floor(r() * 8);
      for (let k = 0; k < n; k++) src += PIECES[Math.floor(r() * PIECES.length)];
      try {
        const node = parseExpression(src);
        try {
          evaluate(node, scope);
        } catch (e) {
          assert.ok(e instanceof ExprError, `evaluate(${JSON.stringify(src)}) threw ${String(e)}`);
        }
      } catch (e) {
        assert.ok(e instanceof ExprError, `parse(${JSON.stringify(src)}) threw ${String(e)}`);
        assert.ok(e.offset >= 0 && e.offset <= src.length, `offset ${e.offset} outside ${JSON.stringify(src)}`);
      }
      try {
        parseTemplate(src);
      } catch (e) {
        assert.ok(e instanceof ExprError, `template(${JSON.stringify(src)}) threw ${String(e)}`);
      }
    }
  });

  it('workflow files: mangled input yields issues, never an exception', () => {
    const base =
      'accounts:\n  a: { generate: true }\ncontracts:\n  c: { spec: c.json }\nsteps:\n  - id: d\n    deploy: { contract: c, creator: a }\n  - call: { app: "${{ steps.d.app-id }}", sender: a, method: "f()void" }\n';
    const r = rng(11);
    for (let i = 0; i < 300; i++) {
      const chars = [...base];
      const edits = 1 + Math.floor(r() * 4);
      for (let k = 0; k < edits; k++) {
        const at = Math.floor(r() * chars.length);
        const op = r();
        if (op < 0.4) chars.splice(at, 1);
        else if (op < 0.8) chars.splice(at, 0, ['{', '}', ':', '-', ' ', '\n', '"', '$', 'x', '[', '1'][Math.floor(r() * 11)]!);
        else chars[at] = ' ';
      }
      const text = chars.join('');
      const result = parseWorkflow(text, 'w.yaml');
      for (const issue of result.issues) {
        assert.ok(issue.line >= 1 && issue.column >= 1, `bad position in ${JSON.stringify(text)}`);
        assert.equal(typeof issue.message, 'string');
      }
      assert.ok(result.workflow || result.issues.some((x) => x.severity === 'error'));
    }
  });
});
