// Coverage in the gutter and a fork of a live network, in a real VS Code (code-server + headless
// Chromium) with the packaged .vsix in a clean profile:
//   1. Coverage (issue 26). The workspace holds a Puya example (struct_in_box: contract.py and its
//      out/ folder with the TEAL and .puya.map) and a node:test file using the test fixture;
//      `tealworks test --coverage` writes coverage/lcov.info (TEAL lines, and contract.py's lines
//      through the .puya.map). contract.py shows covered and missed lines in the gutter, the status
//      bar counts them; a second coverage run with one more test rewrites the file and the gutter
//      follows (the file is watched); "Show / Hide Coverage" clears and restores it; the approval
//      TEAL shows its own lines.
//   2. Fork (issue 25). A second devnet, started here on loopback, stands in for the remote network
//      (the counter app with global state on it). "Add Network by URL" adds it as "remote" (its
//      token into secret storage); the Networks view's "Fork Network into the Devnet" on it
//      restarts the devnet as a fork at the remote's round; the Networks view says so, and the
//      state inspector labels the remote's app and its global state "remote @ <round>", with the
//      remote's values. Nothing reaches the internet.
// Screenshots land in .e2e/artifacts/reports-*.png.
//
//   E2E_DIR=.e2e node --import tsx scripts/e2e/driver-reports.ts   (`scripts/e2e/run.sh reports` prepares everything)
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { Tealworks, algos } from '../../sdk/src/index.js';
import { startDevnet, type RunningDevnet } from '../../sdk/src/services/devnet/index.js';
import { check, openFile, quickInput, root, runCommand, Scenario, showTealworks, startEditor } from './common.js';

const EXAMPLE = resolve(root, '../shared/data/fixtures/puya-examples/struct_in_box');
const scenario = new Scenario('reports');
const log = (m: string) => scenario.log(m);
const results = scenario.results;
const shot = (page: Page, name: string) => scenario.shot(page, name);
const squash = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
const tsxLoader = pathToFileURL(resolve(root, 'node_modules/tsx/dist/loader.mjs')).href;

/** The fixture is read-only; its copy is an ordinary workspace folder. */
function writable(path: string): void {
  chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644);
  if (statSync(path).isDirectory()) for (const n of readdirSync(path)) writable(join(path, n));
}

/** The node:test file: add_user only, or (`more`) also get_user of the user it added. */
function testFile(more: boolean): string {
  return `import { it, before, beforeEach, after } from 'node:test';
import { testFixture } from ${JSON.stringify(join(root, 'sdk/src/testing/index.ts'))};
const out = 'struct_in_box/out/ExampleContract';
const f = testFixture({ baseDir: ${JSON.stringify('.')}, apps: { sib: { spec: out + '.arc56.json', approval: out + '.approval.teal', clear: out + '.clear.teal' } } });
f.install({ before, beforeEach, after });
it('adds a user', async () => { await f.apps.sib.call('add_user', [['alice', 1n, 0n]]); });
${more ? "it('reads a user back', async () => { await f.apps.sib.call('add_user', [['bob', 2n, 0n]]); await f.apps.sib.call('get_user', [2n]); });\n" : ''}`;
}

/** `tealworks test --coverage` in the workspace (as a user runs it); returns its summary line. */
function coverageRun(workspace: string, more: boolean): string {
  writeFileSync(join(workspace, 'struct.test.ts'), testFile(more));
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      tsxLoader,
      join(root, 'sdk/src/cli/main.ts'),
      'test',
      '--runner',
      'node',
      '--coverage',
      '--',
      '--import',
      tsxLoader,
      '--test-concurrency=1',
      'struct.test.ts',
    ],
    { cwd: workspace, encoding: 'utf8', timeout: 240_000 },
  );
  const summary = /coverage: .*/.exec(r.stdout)?.[0] ?? '';
  check(r.status === 0 && summary, `tealworks test --coverage failed (${r.status}): ${r.stdout.slice(-1500)}${r.stderr.slice(-1500)}`);
  const lcov = readFileSync(join(workspace, 'coverage/lcov.info'), 'utf8');
  check(/^SF:struct_in_box\/contract\.py$/m.test(lcov), `the lcov names no contract.py:\n${lcov.slice(0, 800)}`);
  return summary;
}

/** Gutter marks in the active editor: how many show the covered and the missed icon. */
async function gutterMarks(page: Page): Promise<{ covered: number; missed: number }> {
  return page.evaluate(() => {
    const editor = document.querySelector('.editor-group-container.active .monaco-editor') ?? document.querySelector('.monaco-editor');
    const out = { covered: 0, missed: 0 };
    for (const el of Array.from(editor?.querySelectorAll('.margin-view-overlays *, .glyph-margin-widgets *') ?? [])) {
      const bg = getComputedStyle(el).backgroundImage;
      if (bg.includes('coverage-covered')) out.covered++;
      else if (bg.includes('coverage-missed')) out.missed++;
    }
    return out;
  });
}

/** The status bar's coverage item text (empty when hidden). */
async function coverageStatus(page: Page): Promise<string> {
  const item = page.locator('.statusbar-item', { hasText: /Coverage \d+\/\d+ line/ }).first();
  return (await item.isVisible().catch(() => false)) ? squash(await item.textContent()) : '';
}

async function waitFor<T>(page: Page, what: string, probe: () => Promise<T>, ok: (v: T) => boolean, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  let last = await probe();
  while (!ok(last)) {
    if (Date.now() > until) throw new Error(`${what}: still ${JSON.stringify(last)}`);
    await page.waitForTimeout(500);
    last = await probe();
  }
  return last;
}

/** The remote network: a devnet on loopback with the counter app (global state) and a box written. */
async function startRemote(dir: string): Promise<{ devnet: RunningDevnet; appId: bigint; count: bigint }> {
  const devnet = await startDevnet({ dataDir: dir, ports: { node: 0, query: 0, keyManager: 0 } });
  const tw = await Tealworks.connect.devnet({ dataDir: dir });
  try {
    const creator = await tw.account.ensureFunded(tw.account.random(), algos(10));
    const abi = join(root, 'examples/counter/abi');
    const d = await tw.app.deploy({
      creator,
      spec: join(abi, 'counter.arc56.json'),
      approval: join(abi, 'counter.teal'),
      clear: join(abi, 'clear.teal'),
      fund: algos(1),
    });
    await d.client.call('increment', [5]);
    await d.client.call('increment', [2]);
    return { devnet, appId: d.appId, count: 7n };
  } finally {
    await tw.close();
  }
}

async function main(): Promise<void> {
  if (!existsSync(EXAMPLE)) throw new Error(`the Puya examples are not at ${EXAMPLE}`);
  const remoteDir = mkdtempSync(join(tmpdir(), 'tealworks-e2e-remote-'));
  const remote = await startRemote(remoteDir);
  log(`remote devnet at ${remote.devnet.node.url}: app ${remote.appId}, round ${remote.devnet.ledger.latestRound}`);
  results.remote = { url: remote.devnet.node.url, appId: String(remote.appId), round: String(remote.devnet.ledger.latestRound) };
  let workspace = '';
  const editor = await startEditor({
    name: 'reports',
    settings: { 'files.autoSave': 'off' },
    prepare: (ws) => {
      workspace = ws;
      cpSync(EXAMPLE, join(ws, 'struct_in_box'), { recursive: true });
      writable(join(ws, 'struct_in_box'));
      writeFileSync(join(ws, 'package.json'), JSON.stringify({ name: 'reports-e2e', private: true, type: 'module' }));
    },
  });
  let page: Page | undefined;
  try {
    await scenario.run(
      editor,
      () => page,
      async () => {
        // --- 1. coverage in the gutter ---
        results.firstRun = coverageRun(workspace, false);
        log(`first coverage run: ${results.firstRun}`);
        page = await editor.openWorkbench({ width: 1600, height: 1100 });
        log('workbench loaded');
        await page
          .locator('.monaco-workbench')
          .click({ position: { x: 800, y: 500 } })
          .catch(() => undefined);
        await openFile(page, 'struct_in_box/contract.py');
        await page.waitForFunction(() => document.querySelector('.monaco-editor .view-lines')?.textContent?.includes('read_from_box'), undefined, {
          timeout: 60_000,
        });
        const first = await waitFor(
          page,
          'coverage in the gutter of contract.py',
          async () => ({ ...(await gutterMarks(page!)), status: await coverageStatus(page!) }),
          (m) => m.covered > 0 && m.missed > 0 && m.status !== '',
          120_000,
        );
        log(`contract.py after the first run: ${JSON.stringify(first)}`);
        results.pyFirst = first;
        await shot(page, 'py-coverage-first');

        // A second run with one more test: the lcov is rewritten, the watcher repaints.
        results.secondRun = coverageRun(workspace, true);
        log(`second coverage run: ${results.secondRun}`);
        const second = await waitFor(
          page,
          'the gutter after the second run',
          async () => ({ ...(await gutterMarks(page!)), status: await coverageStatus(page!) }),
          (m) => m.covered > first.covered && m.status !== first.status,
        );
        log(`contract.py after the second run: ${JSON.stringify(second)}`);
        check(second.covered + second.missed === first.covered + first.missed, `the marked lines changed in number: ${JSON.stringify({ first, second })}`);
        results.pySecond = second;
        await shot(page, 'py-coverage-second');

        // Hide, then show again.
        await runCommand(page, 'Tealworks: Show / Hide Coverage in the Gutter');
        const hidden = await waitFor(
          page,
          'hidden coverage',
          async () => ({ ...(await gutterMarks(page!)), status: await coverageStatus(page!) }),
          (m) => m.covered === 0 && m.missed === 0 && m.status === '',
        );
        results.hidden = hidden;
        await shot(page, 'py-coverage-hidden');
        await runCommand(page, 'Tealworks: Show / Hide Coverage in the Gutter');
        const shownAgain = await waitFor(
          page,
          'coverage shown again',
          async () => ({ ...(await gutterMarks(page!)), status: await coverageStatus(page!) }),
          (m) => m.covered === second.covered && m.missed === second.missed,
        );
        results.shownAgain = shownAgain;
        log(`hidden ${JSON.stringify(hidden)}, shown again ${JSON.stringify(shownAgain)}`);

        // The approval TEAL Puya wrote has its own lines.
        await openFile(page, 'struct_in_box/out/ExampleContract.approval.teal');
        const teal = await waitFor(
          page,
          'coverage in the gutter of the approval TEAL',
          async () => ({ ...(await gutterMarks(page!)), status: await coverageStatus(page!) }),
          (m) => m.covered > 0 && m.missed > 0 && /Coverage \d+\/\d+/.test(m.status),
        );
        log(`approval TEAL: ${JSON.stringify(teal)}`);
        results.teal = teal;
        await shot(page, 'teal-coverage');

        // --- 2. fork the remote network into the devnet ---
        // The remote is added as users add a network: name, node URL, no query service, its token.
        await runCommand(page, 'Tealworks: Add Network by URL');
        const answer = async (prompt: RegExp, text: string) => {
          await quickInput(page!, prompt);
          if (text) await page!.keyboard.type(text);
          await page!.keyboard.press('Enter');
          await page!.waitForTimeout(300);
        };
        await answer(/Network name/, 'remote');
        await answer(/Node URL/, remote.devnet.node.url);
        await answer(/Query service URL/, '');
        await answer(/API token/, remote.devnet.node.token);
        await showTealworks(page);
        const networks = page.locator('.pane', { hasText: 'Networks' }).first();
        const remoteRow = networks.locator('.monaco-list-row', { hasText: 'remote' }).first();
        await remoteRow.waitFor({ timeout: 60_000 });
        await remoteRow.hover();
        const forkButton = remoteRow.locator('.action-label[aria-label^="Fork Network"]').first();
        await forkButton.waitFor({ timeout: 20_000 });
        await forkButton.click();
        log('clicked "Fork Network into the Devnet" on remote');
        // A running devnet is restarted only after a modal confirmation.
        const confirmed = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Fork$/ }).first();
        const toast = page.locator('.notifications-toasts .notification-toast', { hasText: /is a fork of remote at round \d+/ }).first();
        const first2 = await Promise.race([
          confirmed.waitFor({ timeout: 120_000 }).then(() => 'dialog'),
          toast.waitFor({ timeout: 120_000 }).then(() => 'toast'),
        ]).catch(async (e: Error) => {
          const toasts = (await page!.locator('.notifications-toasts .notification-toast').allTextContents()).map(squash);
          throw new Error(`no fork confirmation or result; notifications: ${JSON.stringify(toasts)} (${e.message.split('\n')[0]})`);
        });
        if (first2 === 'dialog') {
          await shot(page, 'fork-confirm');
          await confirmed.click();
        }
        await toast.waitFor({ timeout: 120_000 });
        const forked = squash(await toast.locator('.notification-list-item-message').first().textContent());
        log(`fork: ${forked}`);
        const forkRound = /at round (\d+)/.exec(forked)![1]!;
        check(BigInt(forkRound) === remote.devnet.ledger.latestRound, `forked at round ${forkRound}, the remote is at ${remote.devnet.ledger.latestRound}`);
        results.fork = { toast: forked, round: forkRound };
        const devnetRow = networks.locator('.monaco-list-row', { hasText: `fork of remote @ ${forkRound}` }).first();
        await devnetRow.waitFor({ timeout: 60_000 });
        results.networksRow = squash(await devnetRow.textContent());
        log(`Networks view: ${results.networksRow}`);
        await shot(page, 'forked-networks');

        // The inspector: the remote's app, its global state and box, labelled with their origin.
        await runCommand(page, 'Tealworks: Inspect App by Id');
        await quickInput(page, /App id to inspect/);
        await page.keyboard.type(String(remote.appId));
        await page.keyboard.press('Enter');
        const state = page.locator('.pane', { hasText: 'State Inspector' }).first();
        const appRow = state.locator('.monaco-list-row', { hasText: `App ${remote.appId}` }).first();
        await appRow.waitFor({ timeout: 60_000 });
        const label = `remote @ ${forkRound}`;
        await state.locator('.monaco-list-row', { hasText: 'Global state' }).first().waitFor({ timeout: 60_000 });
        const rows = await waitFor(
          page,
          `the inspector's origin labels`,
          async () => (await state.locator('.monaco-list-row').allTextContents()).map(squash),
          (r) =>
            r.some((t) => t.startsWith(`App ${remote.appId}`) && t.includes(label)) &&
            r.some((t) => /^Global state/.test(t) && t.includes(label)) &&
            r.some((t) => /"count" = 7/.test(t)) &&
            r.some((t) => /^No boxes/.test(t)),
        );
        check(!rows.some((t) => /failed with HTTP|does not exist/.test(t)), `the inspector shows an error: ${rows.join(' | ')}`);
        log(`inspector: ${rows.join(' | ')}`);
        results.inspector = rows;
        await shot(page, 'forked-inspector');
      },
    );
  } finally {
    await remote.devnet.stop().catch(() => undefined);
    rmSync(remoteDir, { recursive: true, force: true });
  }
}

scenario.main(main);
