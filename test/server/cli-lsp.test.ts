import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { repoRoot, startClient } from './lspClient.js';
import { locateServer } from '../../sdk/src/cli/commands/lsp.js';
import { locateDebugAdapter } from '../../sdk/src/cli/commands/debug.js';

describe('server: `tealworks lsp --stdio`', function () {
  it('starts the same server through the CLI and answers over stdio', async () => {
    const client = await startClient({ args: ['--import', 'tsx', resolve(repoRoot, 'sdk/src/cli/main.ts'), 'lsp', '--stdio'] });
    try {
      assert.equal(client.initializeResult.serverInfo?.name, 'tealworks-teal');
      const uri = 'file:///cli.teal';
      const diags = client.nextDiagnostics(uri, 1);
      await client.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'teal', version: 1, text: '#pragma version 8\ntxn \n' },
      });
      await diags;
      const items = await client.connection.sendRequest<{ label: string }[]>('textDocument/completion', {
        textDocument: { uri },
        position: { line: 1, character: 4 },
      });
      assert.ok(items.some((i) => i.label === 'ApplicationID'));
    } finally {
      await client.stop();
    }
    assert.equal(client.child.exitCode, 0);
  });

  it('locates the server: override, bundle beside the CLI, then the sources', () => {
    const fromSources = locateServer(resolve(repoRoot, 'sdk/src/cli/commands'), {});
    assert.ok(fromSources);
    assert.ok(fromSources.path.endsWith('server/src/main.ts') || fromSources.path.endsWith('server.cjs'));
    const override = locateServer(resolve(repoRoot, 'sdk/src/cli/commands'), { TEALWORKS_LSP_SERVER: resolve(repoRoot, 'server/src/main.ts') });
    assert.equal(override?.path, resolve(repoRoot, 'server/src/main.ts'));
    assert.equal(override?.nodeArgs[0], '--import');
    assert.equal(locateServer('/nonexistent/dir', { TEALWORKS_LSP_SERVER: '/nonexistent/server.cjs' }), undefined);
    assert.equal(locateServer('/nonexistent/dir', {}), undefined);
  });

  it('locates the server from a chunk of the split CLI bundle (dist/cli-chunks/ → dist/server.cjs), and the debug adapter likewise', () => {
    const pkg = mkdtempSync(join(tmpdir(), 'tw-cli-chunks-'));
    try {
      mkdirSync(join(pkg, 'dist', 'cli-chunks'), { recursive: true });
      writeFileSync(join(pkg, 'dist', 'server.cjs'), '');
      writeFileSync(join(pkg, 'dist', 'debug-adapter.cjs'), '');
      assert.deepEqual(locateServer(join(pkg, 'dist', 'cli-chunks'), {}), { nodeArgs: [], path: join(pkg, 'dist', 'server.cjs') });
      assert.deepEqual(locateDebugAdapter(join(pkg, 'dist', 'cli-chunks'), {}), { nodeArgs: [], path: join(pkg, 'dist', 'debug-adapter.cjs') });
    } finally {
      rmSync(pkg, { recursive: true, force: true });
    }
  });
});
