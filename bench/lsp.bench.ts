import { startClient } from '../test/server/lspClient.js';
import { analyze, AnalysisSession } from '../sdk/src/teal/assembler/index.js';
import { latencyEntry, median, type BenchModule } from './lib.js';
import { generateProgram } from './teal.bench.js';

/**
 * The language server through JSON-RPC over stdio (a real server process), on a generated
 * 10,000-line program: diagnostics after an edit (debounce set to 0, so this is the incremental
 * re-analysis plus lints plus transport), then completion, hover and full semantic tokens on the settled version.
 */
const bench: BenchModule = {
  name: 'lsp',
  description: 'TEAL language server over stdio JSON-RPC on a 10,000-line program: diagnostics after an edit, completion, hover, semantic tokens (medians)',
  async run() {
    const text = generateProgram();
    const lines = text.split('\n');
    const client = await startClient({ initializationOptions: { diagnosticsDelay: 0 } });
    try {
      const uri = 'file:///bench/big.teal';
      const opened = client.nextDiagnostics(uri, 1);
      await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'teal', version: 1, text } });
      const first = await opened;
      const errors = first.diagnostics.filter((d) => d.severity === 1).length;
      // An edit that changes a constant inside a subroutine body (the incremental analysis re-runs the
      // lines around it, reuses the rest of the per-line pass, and runs the global back end again).
      const editLine = lines.findIndex((l) => l.startsWith('int 1000'));
      let version = 1;
      const diagTimes: number[] = [];
      for (let i = 0; i < 25; i++) {
        version++;
        const done = client.nextDiagnostics(uri, version);
        const t = performance.now();
        await client.connection.sendNotification('textDocument/didChange', {
          textDocument: { uri, version },
          contentChanges: [
            { range: { start: { line: editLine, character: 4 }, end: { line: editLine, character: 8 } }, text: String(1000 + (i % 2)).padStart(4, '0') },
          ],
        });
        await done;
        if (i >= 3) diagTimes.push(performance.now() - t);
      }
      const time = async (method: string, params: unknown, n = 41) => {
        const ts: number[] = [];
        for (let i = 0; i < n; i++) {
          const t = performance.now();
          await client.connection.sendRequest(method, params);
          if (i >= 5) ts.push(performance.now() - t);
        }
        return { median: median(ts), best: Math.min(...ts) };
      };
      const fieldLine = lines.findIndex((l) => l.startsWith('txna ApplicationArgs 1'));
      // Typing: an edit immediately followed by completion on the same line, before the debounced
      // analysis runs. The edit types a space at the end of the `txna` line and takes it out again,
      // in turn; the completion is the field list after `txna ` (the figure above, now unsettled).
      const c2 = await startClient();
      const typing: number[] = [];
      let typedItems = 0;
      try {
        const opened2 = c2.nextDiagnostics(uri, 1);
        await c2.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'teal', version: 1, text } });
        await opened2;
        const end = lines[fieldLine]!.length;
        for (let i = 0; i < 25; i++) {
          const t = performance.now();
          await c2.connection.sendNotification('textDocument/didChange', {
            textDocument: { uri, version: i + 2 },
            contentChanges: [
              i % 2 === 0
                ? { range: { start: { line: fieldLine, character: end }, end: { line: fieldLine, character: end } }, text: ' ' }
                : { range: { start: { line: fieldLine, character: end }, end: { line: fieldLine, character: end + 1 } }, text: '' },
            ],
          });
          const items = await c2.connection.sendRequest<unknown[] | { items: unknown[] }>('textDocument/completion', {
            textDocument: { uri },
            position: { line: fieldLine, character: 5 },
          });
          if (i >= 3) typing.push(performance.now() - t);
          typedItems = (Array.isArray(items) ? items : items.items).length;
        }
      } finally {
        await c2.stop();
      }
      if (typedItems === 0) throw new Error('the completion after an edit gave no items: the figure would time an empty answer');
      const completion = await time('textDocument/completion', { textDocument: { uri }, position: { line: fieldLine, character: 5 } });
      const opLine = lines.findIndex((l) => l === 'app_global_get');
      const hover = await time('textDocument/hover', { textDocument: { uri }, position: { line: opLine, character: 3 } });
      const tokens = await time('textDocument/semanticTokens/full', { textDocument: { uri } }, 15);
      // Context for the diagnostics figure: how much of it is the assembler's analysis alone.
      const an: number[] = [];
      for (let i = 0; i < 15; i++) {
        const t = performance.now();
        analyze(text);
        if (i >= 3) an.push(performance.now() - t);
      }
      // And how much is the incremental analysis the server runs after such an edit.
      const session = new AnalysisSession();
      session.update(text);
      const inc: number[] = [];
      for (let i = 0; i < 25; i++) {
        const edited = lines.slice();
        edited[editLine] = `int ${1000 + (i % 2)}`;
        const t = performance.now();
        session.update(edited.join('\n'));
        if (i >= 3) inc.push(performance.now() - t);
      }
      const note = `${lines.length - 1} lines, ${errors} errors; best ${Math.min(...diagTimes).toFixed(1)} ms; in-process: analyze() median ${median(an).toFixed(1)} ms (best ${Math.min(...an).toFixed(1)}), incremental AnalysisSession.update median ${median(inc).toFixed(1)} ms (best ${Math.min(...inc).toFixed(1)})`;
      return [
        latencyEntry('diagnostics after edit', 'ms', median(diagTimes), null, `${note}; goal < 15 ms`),
        latencyEntry('completion', 'ms', completion.median, null, `field list after txna; best ${completion.best.toFixed(2)} ms; goal < 5 ms`),
        latencyEntry(
          'completion right after an edit',
          'ms',
          median(typing),
          null,
          `edit + completion of the edited line's ${typedItems} fields, before the debounced analysis (lexed-only model, re-lexed around the edit); best ${Math.min(...typing).toFixed(2)} ms; goal < 2 ms`,
        ),
        latencyEntry('hover', 'ms', hover.median, null, `opcode hover; best ${hover.best.toFixed(2)} ms; goal < 5 ms`),
        latencyEntry('semantic tokens (full)', 'ms', tokens.median, null, `whole document, cached per version; best ${tokens.best.toFixed(1)} ms`),
      ];
    } finally {
      await client.stop();
    }
  },
};

export default bench;
