// Large inputs to the TEAL language server (a real server process over JSON-RPC): a 6 MB file and
// a 1 MB single line are refused as too large without being lexed or analysed, another document
// is served meanwhile; a file under the limit is analysed in slices while other documents are
// answered first (ordering); an 80 MB ARC-56 spec beside a TEAL file is never read.
// Assertions are on outcomes, ordering and memory, never on durations.
import assert from 'node:assert/strict';
import { HANG_GUARD_MS } from '../helpers/hang.js';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync, closeSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startClient, type TestClient } from '../server/lspClient.js';

function peakRss(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** A valid TEAL program of about `bytes` characters. */
function bigProgram(bytes: number): string {
  const body = 'int 1\npop\n';
  return '#pragma version 10\n' + body.repeat(Math.ceil(bytes / body.length)) + 'int 1\n';
}

describe('fault: large inputs to the language server', function () {
  this.timeout(3 * HANG_GUARD_MS);
  let client: TestClient;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-lsp-large-'));
    client = await startClient({ initializationOptions: { diagnosticsDelay: 0 } });
  });
  after(async () => {
    await client?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = (uri: string, text: string) =>
    client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'teal', version: 1, text } });

  it('a 6 MB file and a 1 MB single line are refused as too large, not lexed, while another document is served', async () => {
    for (const [name, text] of [
      ['six-mb.teal', bigProgram(6 * 1024 * 1024)],
      ['one-line.teal', '#pragma version 10\nint 1 // ' + 'x'.repeat(1_000_000) + '\n'],
    ] as const) {
      const big = `file:///large/${name}`;
      const small = `file:///large/small-${name}`;
      const bigDiags = client.nextDiagnostics(big, 1);
      const smallDiags = client.nextDiagnostics(small, 1);
      await open(big, text);
      await open(small, '#pragma version 10\nint 1\nreturn\n');
      const [tokens, symbols, hover, smallTokens] = await Promise.all([
        client.connection.sendRequest<{ data: number[] }>('textDocument/semanticTokens/full', { textDocument: { uri: big } }),
        client.connection.sendRequest<unknown[]>('textDocument/documentSymbol', { textDocument: { uri: big } }),
        client.connection.sendRequest<{ contents: unknown } | null>('textDocument/hover', {
          textDocument: { uri: small },
          position: { line: 2, character: 2 },
        }),
        client.connection.sendRequest<{ data: number[] }>('textDocument/semanticTokens/full', { textDocument: { uri: small } }),
      ]);
      const published = await bigDiags;
      assert.equal(published.diagnostics.length, 1, name);
      assert.equal(published.diagnostics[0]!.code, 'too-large');
      assert.match(published.diagnostics[0]!.message, /too large|longer than/);
      assert.deepEqual(tokens.data, [], `${name}: not highlighted by the server (not lexed)`);
      assert.deepEqual(symbols, []);
      assert.ok(hover && JSON.stringify(hover.contents).includes('return'), 'the other document is served');
      assert.ok(smallTokens.data.length > 0);
      assert.deepEqual((await smallDiags).diagnostics, []);
      for (const uri of [big, small]) await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
    }
  });

  it('a file under the limit is analysed in slices: a hover on another document is answered before its diagnostics', async () => {
    const small = 'file:///large/small-2.teal';
    await open(small, '#pragma version 10\nint 1\nreturn\n');
    await client.nextDiagnostics(small);
    const big = 'file:///large/under-limit.teal';
    const order: string[] = [];
    const bigDone = client.nextDiagnostics(big, 1).then((p) => (order.push('big diagnostics'), p));
    void open(big, bigProgram(900 * 1024));
    const hover = await client.connection.sendRequest<{ contents: unknown } | null>('textDocument/hover', {
      textDocument: { uri: small },
      position: { line: 2, character: 2 },
    });
    order.push('hover');
    assert.ok(hover);
    const published = await bigDone;
    assert.deepEqual(order, ['hover', 'big diagnostics']);
    assert.ok(!published.diagnostics.some((d) => d.code === 'too-large'), 'the big file was analysed, not refused');
    assert.ok(
      published.diagnostics.some((d) => /program too long/.test(d.message)),
      'the assembler saw all of it',
    );
    for (const uri of [big, small]) await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  });

  it('an 80 MB ARC-56 spec beside a TEAL file is not read; the file gets its diagnostics', async () => {
    const teal = join(dir, 'app.teal');
    writeFileSync(teal, '#pragma version 10\nint TMPL_X\nreturn\n');
    const spec = join(dir, 'app.arc56.json');
    closeSync(openSync(spec, 'w'));
    truncateSync(spec, 80 * 1024 * 1024); // sparse: 80 MB of zero bytes
    const pid = client.child.pid!;
    const before = peakRss(pid);
    const uri = pathToFileURL(teal).href;
    const diags = client.nextDiagnostics(uri, 1);
    await open(uri, readFileSync(teal, 'utf8'));
    const published = await diags;
    assert.ok(Array.isArray(published.diagnostics));
    const hover = await client.connection.sendRequest<{ contents: unknown } | null>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 2, character: 2 },
    });
    assert.ok(hover);
    const after = peakRss(pid);
    if (before !== undefined && after !== undefined)
      assert.ok(after - before < 40 * 1024 * 1024, `peak RSS grew by ${((after - before) / 1048576).toFixed(0)} MB: the spec was read`);
    await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  });
});
