// Bounded work in the language server (real server processes over JSON-RPC): pathological macro
// programs get a diagnostic quickly and without exhausting memory, other documents keep being
// served, workspace symbols and code lenses stay cheap, and an orphaned server exits.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';
import { repoRoot, startClient, type TestClient } from './lspClient.js';
import { settles, until } from '../helpers/hang.js';
import { exponentialMacros, longChain, manyLabels, wideMacro } from '../helpers/pathological.js';

/** Peak resident memory of a process in bytes (Linux), or undefined elsewhere. */
function peakRss(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('server: bounded work for every input', function () {
  this.timeout(60_000);
  let client: TestClient;
  let n = 0;
  before(async () => {
    client = await startClient({ initializationOptions: { diagnosticsDelay: 0 } });
  });
  after(async () => client?.stop());

  const open = async (text: string) => {
    const uri = `file:///bounded/doc${++n}.teal`;
    const diags = client.nextDiagnostics(uri, 1);
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'teal', version: 1, text } });
    return { uri, diags };
  };

  for (const [name, text, pattern] of [
    ['exponential macros (32 levels)', exponentialMacros(32), /macro expansion too large/],
    ['a wide macro used 2,000 times', wideMacro(2000, 2000), /macro expansion too large/],
    ['10,000 chained macros', longChain(10_000), /macro expansion too deep/],
  ] as const) {
    it(`${name}: a bounded diagnostic, memory growth under 200 MB, and the server still answers`, async () => {
      const pid = client.child.pid!;
      const before = peakRss(pid);
      const { uri, diags } = await open(text);
      const published = await settles(name, diags);
      assert.ok(
        published.diagnostics.some((d) => pattern.test(d.message)),
        JSON.stringify(published.diagnostics.slice(0, 2)),
      );
      const after = peakRss(pid);
      if (before !== undefined && after !== undefined)
        assert.ok(after - before < 200 * 1024 * 1024, `peak RSS grew by ${((after - before) / 1048576).toFixed(0)} MB`);
      // Features that use the analysis answer too.
      for (const method of ['textDocument/documentSymbol', 'textDocument/codeLens', 'textDocument/semanticTokens/full', 'textDocument/foldingRange']) {
        await settles(method, client.connection.sendRequest(method, { textDocument: { uri } }));
      }
      await settles(
        'inlay hints',
        client.connection.sendRequest('textDocument/inlayHint', {
          textDocument: { uri },
          range: { start: { line: 0, character: 0 }, end: { line: 40, character: 0 } },
        }),
      );
      await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
    });
  }

  it('answers a hover on one document while another (pathological) one is still being analysed', async () => {
    const small = await open('#pragma version 10\nint 1\nreturn\n');
    await small.diags;
    const order: string[] = [];
    // Opening the big one starts its analysis (hundreds of ms of assembler work, in slices); the
    // hover on the small one is sent right behind it and must not wait for that analysis.
    // Both messages are written in the same turn, so the server has both before the analysis ends.
    const big = { uri: `file:///bounded/doc${++n}.teal` };
    const bigDone = client.nextDiagnostics(big.uri, 1).then((p) => {
      order.push('big diagnostics');
      return p;
    });
    void client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: big.uri, languageId: 'teal', version: 1, text: exponentialMacros(40) },
    });
    const hover = await settles(
      'hover',
      client.connection.sendRequest<{ contents: unknown } | null>('textDocument/hover', {
        textDocument: { uri: small.uri },
        position: { line: 2, character: 2 },
      }),
    );
    order.push('hover');
    assert.ok(hover && JSON.stringify(hover.contents).includes('return'), JSON.stringify(hover));
    const published = await settles('big diagnostics', bigDone);
    assert.deepEqual(order, ['hover', 'big diagnostics'], "the hover waited for the other document's analysis");
    assert.ok(published.diagnostics.some((d) => /macro expansion too large/.test(d.message)));
    await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: big.uri } });
  });

  it('requests for a document under analysis get its model; an edit during the analysis wins', async () => {
    const { uri, diags } = await open(exponentialMacros(40));
    // Sent while the analysis runs: answered from that same analysis, not an empty model.
    const symbols = client.connection.sendRequest<{ name: string }[]>('textDocument/documentSymbol', { textDocument: { uri } });
    const v2 = client.nextDiagnostics(uri, 2);
    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: '#pragma version 10\nint 1\nreturn\n' }],
    });
    const found = await settles('document symbols', symbols);
    assert.ok(Array.isArray(found));
    const published = await settles('diagnostics of version 2', v2);
    assert.deepEqual(published.diagnostics, []);
    // Whatever version 1's analysis got to, nothing older than version 2 is published after it.
    await new Promise((r) => setTimeout(r, 100));
    const last = client.notifications.filter((n) => n.method === 'textDocument/publishDiagnostics' && (n.params as { uri: string }).uri === uri).at(-1);
    assert.equal((last?.params as { version?: number }).version, 2);
    void diags;
    await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  });

  it('code lens is linear in labels: 50,000 labels', async () => {
    const { uri, diags } = await open(manyLabels(50_000));
    await settles('diagnostics', diags);
    const lenses = await settles('code lens', client.connection.sendRequest<unknown[]>('textDocument/codeLens', { textDocument: { uri } }));
    assert.equal(lenses.length, 50_001);
    await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  });

  it('workspace/symbol over a folder holding pathological files answers, capped per file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tealworks-ws-'));
    try {
      writeFileSync(join(dir, 'exp.teal'), exponentialMacros(24));
      writeFileSync(join(dir, 'chain.teal'), longChain(10_000));
      writeFileSync(join(dir, 'labels.teal'), manyLabels(20_000));
      const ws = await startClient({ rootUri: pathToFileURL(dir).toString() });
      try {
        // Each request spends a bounded time analysing files it has not seen; the cache fills over
        // requests (how many depends on the machine's speed, so ask until it has).
        let fromLabels = 0;
        for (let attempt = 0; attempt < 500 && fromLabels === 0; attempt++) {
          const found = await settles('workspace/symbol', ws.connection.sendRequest<{ location: { uri: string } }[]>('workspace/symbol', { query: '' }));
          fromLabels = found.filter((s) => s.location.uri.endsWith('labels.teal')).length;
        }
        assert.ok(fromLabels > 0 && fromLabels <= 1000, `labels.teal gave ${fromLabels} symbols`);
      } finally {
        await ws.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('server: exits when its parent goes away', function () {
  this.timeout(30_000);

  it('an orphaned server (the `tealworks lsp` wrapper killed, stdin still open) exits on its own', async function () {
    if (process.platform !== 'linux') this.skip();
    const wrapper = spawn(process.execPath, ['--import', 'tsx', resolve(repoRoot, 'sdk/src/cli/main.ts'), 'lsp', '--stdio'], {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const connection = createMessageConnection(new StreamMessageReader(wrapper.stdout!), new StreamMessageWriter(wrapper.stdin!));
    connection.listen();
    try {
      // No processId: only the parent watch can notice.
      await connection.sendRequest('initialize', { processId: null, rootUri: null, capabilities: {} });
      const childrenFile = `/proc/${wrapper.pid}/task/${wrapper.pid}/children`;
      assert.ok(existsSync(childrenFile));
      const server = Number(readFileSync(childrenFile, 'utf8').trim().split(/\s+/)[0]);
      assert.ok(server > 0 && alive(server));
      wrapper.kill('SIGKILL');
      await until('the orphaned server exits', () => !alive(server), undefined, 50);
    } finally {
      connection.dispose();
      wrapper.stdin!.destroy();
      wrapper.stdout!.destroy();
    }
  });

  it('a server whose parent dies exits, even with stdin held open by someone else', async function () {
    if (process.platform !== 'linux') this.skip();
    // A parent that starts the server with its stdin being our pipe, then is killed.
    const script = `const { spawn } = require('node:child_process'); const c = spawn(process.execPath, ['--import', 'tsx', ${JSON.stringify(resolve(repoRoot, 'server/src/main.ts'))}, '--stdio'], { stdio: ['inherit', 'inherit', 'inherit'] }); console.error('child ' + c.pid); setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', script], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    parent.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    await until('the parent names its server child', () => /child \d+/.test(err));
    const server = Number(/child (\d+)/.exec(err)![1]);
    await new Promise((r) => setTimeout(r, 1500)); // let it start up
    assert.ok(alive(server));
    parent.kill('SIGKILL');
    await until('the server exits after its parent died', () => !alive(server), undefined, 50);
    parent.stdin!.destroy();
  });
});
