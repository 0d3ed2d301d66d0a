// Debugging an Algorand Python contract in code-server: opens a Puya example's contract.py (its
// out/ folder holds the TEAL, the ARC-56 spec and the .puya.map Puya wrote), deploys it from the
// CodeLens on the .py file, calls a method through the simulate panel so that it fails, checks
// that the panel names the .py line and the spec's message and that its link lands on that line,
// then debugs the failing group from the panel: the debugger stops on the .py line, with the
// subroutine as the frame name, and one step back moves to the previous statement.
//
//   E2E_DIR=.e2e node --import tsx scripts/e2e/driver-puya.ts   (`scripts/e2e/run.sh puya` prepares everything)
import { chmodSync, cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { check, clickLens, openFile, panelFrame, quickInput, root, Scenario, startEditor } from './common.js';
import type { Page } from 'playwright-core';

const EXAMPLE = resolve(root, '../shared/data/fixtures/puya-examples/struct_in_box');
const scenario = new Scenario('puya');
const log = (m: string) => scenario.log(m);
const results = scenario.results;
const shot = (page: Page, name: string) => scenario.shot(page, name);
const squash = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

/** The fixture is read-only; its copy is an ordinary workspace folder. */
function writable(path: string): void {
  chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644);
  if (statSync(path).isDirectory()) for (const n of readdirSync(path)) writable(join(path, n));
}

/** Opens a file by Quick Open, else by clicking through the Explorer (the file index may still be building). */
async function openInExplorer(page: Page, folder: string, file: string): Promise<void> {
  try {
    await openFile(page, `${folder}/${file}`);
    return;
  } catch {
    await page.keyboard.press('Escape');
  }
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: folder }).first().click();
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: file }).first().click();
}

async function main(): Promise<void> {
  if (!existsSync(EXAMPLE)) throw new Error(`the Puya examples are not at ${EXAMPLE}`);
  const editor = await startEditor({
    name: 'puya',
    settings: { 'files.autoSave': 'off' },
    // The fixture is read-only test data: the workspace gets a copy, in a temp folder.
    prepare: (workspace) => {
      cpSync(EXAMPLE, join(workspace, 'struct_in_box'), { recursive: true });
      writable(join(workspace, 'struct_in_box'));
    },
  });
  let page: Page | undefined;
  await scenario.run(
    editor,
    () => page,
    async () => {
      page = await editor.openWorkbench({ width: 1600, height: 1000 });
      log('workbench loaded');
      await page
        .locator('.monaco-workbench')
        .click({ position: { x: 800, y: 500 } })
        .catch(() => undefined);
      await openInExplorer(page, 'struct_in_box', 'contract.py');
      await page.waitForFunction(() => document.querySelector('.monaco-editor .view-lines')?.textContent?.includes('read_from_box'), undefined, {
        timeout: 30_000,
      });
      log('contract.py opened');

      // 1. The CodeLens on the .py file deploys the TEAL Puya wrote (found through the source map).
      await clickLens(page, /Deploy/, { file: 'struct_in_box/contract.py', ms: 120_000 });
      const deployed = page.locator('.notifications-toasts .notification-toast', { hasText: /Deployed app \d+/ }).first();
      await deployed.waitFor({ timeout: 180_000 });
      const appId = /Deployed app (\d+)/.exec(squash(await deployed.textContent()))![1]!;
      log(`deployed app ${appId}`);
      results.appId = appId;
      await shot(page, 'deployed');

      // 2. Call get_user for an id with no box through the panel: the call would fail.
      await clickLens(page, new RegExp(`Call app ${appId}`), { file: 'struct_in_box/contract.py', ms: 60_000 });
      await quickInput(page, /Call app/);
      await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 30_000 });
      await page.keyboard.type('get_user');
      await page.waitForTimeout(400);
      await page.keyboard.press('Enter');
      const frame = await panelFrame(page, 120_000);
      await frame.waitForSelector('[data-field="args.0"]', { timeout: 60_000 });
      await frame.fill('[data-field="args.0"]', '99');
      await frame.click('#simulate');
      await frame.waitForFunction(() => /Would fail/.test(document.querySelector('#verdict')?.textContent ?? ''), undefined, { timeout: 120_000 });
      const failure = squash(await frame.textContent('#failure'));
      log(`failure: ${failure.slice(0, 400)}`);
      check(/User with that id does not exist/.test(failure), `the spec's message is not shown: ${failure}`);
      check(/contract\.py:14:\d+/.test(failure), `the failing .py line (14) is not shown: ${failure}`);
      check(/assert exists, "User with that id does not exist"/.test(failure), `the .py line's text is not quoted: ${failure}`);
      check(/TEAL .*ExampleContract\.approval\.teal:\d+/.test(failure), `the TEAL line is not shown beside it: ${failure}`);
      const chain = squash(await frame.textContent('#failure-chain'));
      check(/app \d+ \(ExampleContract\).*get_user\(uint64\)/.test(chain), `the call chain does not name the app and method: ${chain}`);
      results.panel = { failure, chain };
      await shot(page, 'panel-failure');

      // 3. The link lands on the .py line.
      await frame.click('#failing-line');
      const tab = page.locator('.tabs-container .tab.active', { hasText: 'contract.py' }).first();
      await tab.waitFor({ timeout: 30_000 });
      const cursor = page.locator('.statusbar-item[id$="status.editor.selection"], .statusbar-item', { hasText: /Ln 14, Col/ }).first();
      check(
        await cursor.waitFor({ timeout: 30_000 }).then(
          () => true,
          () => false,
        ),
        'the cursor is not on line 14 of contract.py',
      );
      results.landed = squash(await cursor.textContent());
      log(`landed: ${results.landed}`);
      await shot(page, 'landed-on-py-line');

      // 4. Debug the failing group: the debugger stops on the .py line; one step back moves up.
      await frame.click('#debug');
      await page.locator('.debug-toolbar').first().waitFor({ timeout: 60_000 });
      log('debug session started');
      const runView = page.locator('.activitybar [aria-label^="Run and Debug"]').first();
      if (
        !(await page
          .locator('.debug-call-stack')
          .first()
          .isVisible()
          .catch(() => false))
      )
        await runView.click().catch(() => undefined);
      const top = page.locator('.debug-call-stack .monaco-list-row', { hasText: 'contract.py' }).first();
      await top.waitFor({ timeout: 60_000 });
      const topText = squash(await top.textContent());
      log(`top frame: ${topText}`);
      check(
        /ExampleContract\.get_user\[routing\] @ pc \d+/.test(topText) && /contract\.py\s*14:/.test(topText),
        `the debugger did not stop at contract.py:14 in get_user: ${topText}`,
      );
      await shot(page, 'debug-at-py-line');
      await page.locator('.debug-toolbar .codicon-debug-step-back, .debug-toolbar [aria-label^="Step Back"]').first().click();
      await page.waitForFunction(
        () => {
          const row = Array.from(document.querySelectorAll('.debug-call-stack .monaco-list-row')).find((r) => r.textContent?.includes('contract.py'));
          return row && !/contract\.py\s*14:/.test(row.textContent ?? '');
        },
        undefined,
        { timeout: 60_000 },
      );
      const backText = squash(await page.locator('.debug-call-stack .monaco-list-row', { hasText: 'contract.py' }).first().textContent());
      log(`after one step back: ${backText}`);
      check(/contract\.py\s*13:/.test(backText), `step back did not move to line 13 (the box read): ${backText}`);
      results.debug = { stoppedAt: topText, afterStepBack: backText };
      await shot(page, 'debug-step-back');
      await page.locator('.debug-toolbar .codicon-debug-stop, .debug-toolbar .codicon-debug-disconnect').first().click();
    },
  );
}

scenario.main(main);
