// tooLargeReason looks for a line break once per 32 KiB block before it scans line by line: a line
// over the limit must be found wherever it starts, and one at the limit never reported.
import assert from 'node:assert/strict';
import { MAX_LINE_CHARS, tooLargeReason } from '../../server/src/teal.js';

describe('server: the line-length limit', () => {
  it('finds a line one character over the limit wherever it starts, and passes one at the limit', () => {
    const short = 'int 1\n';
    for (const before of [0, 1, 5000, 32_767, 32_768, 32_769, 65_535, 65_536, 100_001]) {
      const prefix = short.repeat(Math.ceil(before / short.length)).slice(0, before);
      // The prefix ends with a line break only when cut there; the long line then starts after it.
      const head = prefix.endsWith('\n') || prefix === '' ? prefix : `${prefix}\n`;
      for (const after of ['', '\nint 2\n', `\n${short.repeat(20_000)}`]) {
        const over = `${head}${'x'.repeat(MAX_LINE_CHARS + 1)}${after}`;
        assert.match(tooLargeReason(over) ?? '', /longer than the TEAL language server's limit/, `over, ${before} before`);
        const at = `${head}${'x'.repeat(MAX_LINE_CHARS)}${after}`;
        assert.equal(tooLargeReason(at), undefined, `at the limit, ${before} before`);
      }
    }
    assert.equal(tooLargeReason(short.repeat(50_000)), undefined);
  });
});
