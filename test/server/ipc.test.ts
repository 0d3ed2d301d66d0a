import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import { createMessageConnection, IPCMessageReader, IPCMessageWriter } from 'vscode-jsonrpc/node.js';
import type { InitializeResult } from 'vscode-languageserver-protocol';
import { repoRoot } from './lspClient.js';

describe('server: LSP over node IPC (the VS Code transport)', function () {
  it('initializes, publishes diagnostics and shuts down over --node-ipc', async () => {
    const child = fork(resolve(repoRoot, 'server/src/main.ts'), ['--node-ipc'], {
      execArgv: ['--import', 'tsx'],
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const connection = createMessageConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    connection.listen();
    try {
      const init = await connection.sendRequest<InitializeResult>('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
      assert.equal(init.serverInfo?.name, 'tealworks-teal');
      await connection.sendNotification('initialized', {});
      const uri = 'file:///ipc.teal';
      const published = new Promise<{ diagnostics: { message: string }[] }>((res) => connection.onNotification('textDocument/publishDiagnostics', res));
      await connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'teal', version: 1, text: '#pragma version 8\nnotanop\n' },
      });
      const { diagnostics } = await published;
      assert.deepEqual(
        diagnostics.map((d) => d.message),
        ['unknown opcode: notanop'],
      );
      await connection.sendRequest('shutdown');
      const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
      await connection.sendNotification('exit');
      assert.equal(await exited, 0);
    } finally {
      connection.dispose();
      if (child.exitCode === null) child.kill();
    }
  });
});
