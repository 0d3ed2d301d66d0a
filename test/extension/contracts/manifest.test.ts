import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (p: string) => readFileSync(resolve(repoRoot, p), 'utf8');
const pkg = JSON.parse(read('package.json'));

describe('extension contracts: manifest contributions', () => {
  it('declares every command the extension registers, and registers every declared contract command', () => {
    const registered = [...read('extension/src/contracts/index.ts').matchAll(/^\s+'(tealworks\.[\w.]+)',$/gm)].map((m) => m[1]);
    const declared = new Set(pkg.contributes.commands.map((c: { command: string }) => c.command));
    for (const id of registered) assert.ok(declared.has(id), `${id} is not in contributes.commands`);
    const handled = read('extension/src/contracts/main.ts');
    for (const id of registered) assert.ok(handled.includes(`command('${id}'`), `${id} has no handler in main.ts`);
  });

  it('contributes the views, the schema for workflow files and a walkthrough whose files exist', () => {
    const c = pkg.contributes;
    assert.deepEqual(
      c.views.tealworks.map((v: { id: string }) => v.id),
      ['tealworks.networks', 'tealworks.accounts', 'tealworks.state', 'tealworks.workflowResults'],
    );
    assert.ok(existsSync(resolve(repoRoot, c.viewsContainers.activitybar[0].icon)));
    const yaml = c.yamlValidation[0];
    assert.ok(yaml.fileMatch.includes('tealworks.yaml') && yaml.fileMatch.includes('*.workflow.yaml'));
    assert.ok(existsSync(resolve(repoRoot, yaml.url)));
    for (const step of c.walkthroughs[0].steps) assert.ok(existsSync(resolve(repoRoot, step.media.markdown)), step.media.markdown);
    const ignore = read('.vscodeignore');
    for (const f of ['dist/contracts.cjs', 'extension/media/simulate.js', 'extension/media/simulate.css', 'schemas/tealworks.schema.json'])
      assert.ok(ignore.includes(`!${f}`), f);
  });

  it("the Accounts view's welcome says truthfully whether the devnet starts by itself", () => {
    const welcome = pkg.contributes.viewsWelcome.filter((w: { view: string }) => w.view === 'tealworks.accounts') as Array<{ contents: string; when?: string }>;
    assert.deepEqual(
      welcome.map((w) => w.when),
      ['config.tealworks.devnet.autoStart', '!config.tealworks.devnet.autoStart'],
    );
    for (const w of welcome) assert.doesNotMatch(w.contents, /in a moment|unlocked wallet/);
    assert.match(welcome[0]!.contents, /starts by itself on the first Simulate, Deploy or Call/);
    assert.match(welcome[1]!.contents, /does not start by itself/);
  });

  it('describes every contract setting and keeps secrets out of settings', () => {
    const props = pkg.contributes.configuration.properties as Record<string, { description?: string; markdownDescription?: string }>;
    for (const [k, v] of Object.entries(props)) if (k.startsWith('tealworks.')) assert.ok((v.description ?? v.markdownDescription ?? '').length > 20, k);
    assert.ok(!Object.keys(props).some((k) => /token|mnemonic|password|secret/i.test(k)), 'no setting may hold a secret');
  });

  it('gives the webview a strict CSP: nonce-only scripts, no remote content', () => {
    const src = read('extension/src/contracts/simulatePanel.ts');
    assert.match(src, /default-src 'none'/);
    assert.match(src, /script-src 'nonce-\$\{nonce\}'/);
    assert.doesNotMatch(src, /https?:\/\//);
    // The webview scripts are TypeScript, bundled to extension/media/*.js (test/extension/webview renders them).
    for (const f of ['extension/src/webview/simulate.ts', 'extension/src/webview/argForm.ts']) assert.doesNotMatch(read(f), /innerHTML|eval\(|new Function/);
  });
});
