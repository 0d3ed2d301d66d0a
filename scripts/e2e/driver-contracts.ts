// Drives the contract features in code-server: opens examples/counter with a planted bug, lets the
// CodeLens start the devnet and simulate the create (fails: checks the failing txn, the message,
// the logs and the highlighted use-site line), fixes the file, deploys, calls the app through the
// simulate panel and reads its global state and box in the State Inspector. Also records the
// extension's activation time (Running Extensions) and the .vsix size.
//
//   E2E_DIR=.e2e node --import tsx scripts/e2e/driver-contracts.ts   (`scripts/e2e/run.sh contracts` prepares everything)
import { cpSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clickLens, openFile, panelFrame, root, runCommand, Scenario, startEditor, vsix } from './common.js';
import type { Page } from 'playwright-core';

const BUG = ['global CreatorAddress', 'global ZeroAddress'] as const;

const scenario = new Scenario('contracts');
const log = (m: string) => scenario.log(m);
const results = scenario.results;
const shot = (page: Page, name: string) => scenario.shot(page, name);

/**
 * Shows the Problems panel. A click inside the webview leaves keyboard focus in its iframe, where
 * the shortcut never reaches the workbench, so fall back to the command palette.
 */
async function openProblems(page: Page): Promise<void> {
  const panel = page.locator('.markers-panel').first();
  await page.keyboard.press('Control+Shift+M');
  if (
    await panel.waitFor({ state: 'visible', timeout: 5_000 }).then(
      () => true,
      () => false,
    )
  )
    return;
  await runCommand(page, 'View: Focus Problems');
  await panel.waitFor({ state: 'visible', timeout: 15_000 });
}

/** The Variables view's row for a name (e.g. "[-1]"), as text. */
async function variableRow(page: Page, name: string, value: RegExp, ms = 60_000): Promise<string> {
  const row = page.locator('.debug-variables .monaco-list-row', { hasText: name }).filter({ hasText: value }).first();
  await row.waitFor({ timeout: ms });
  return ((await row.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

async function debugFromPanel(page: Page): Promise<void> {
  const frame = await panelFrame(page);
  await frame.waitForSelector('#debug', { timeout: 30_000 });
  const explain = ((await frame.textContent('#explain')) ?? '').replace(/\s+/g, ' ');
  log(`panel explains: ${explain.slice(0, 300)}`);
  if (!/Failing op: assert with operands 0/.test(explain)) throw new Error(`the panel does not name the failing op and its operand: ${explain}`);
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
  const top = page.locator('.debug-call-stack .monaco-list-row', { hasText: 'approval.teal' }).first();
  await top.waitFor({ timeout: 60_000 });
  const topText = ((await top.textContent()) ?? '').replace(/\s+/g, ' ');
  log(`top frame: ${topText}`);
  if (!/^assert @ pc \d+/.test(topText.trim()) || !/43:1/.test(topText))
    throw new Error(`the debugger did not stop on the failing assert at line 43: ${topText}`);
  const before = await variableRow(page, '[-1]', /\b0\b/);
  log(`stack top at the failure: ${before}`);
  await shot(page, 'debug-failure');
  await page.locator('.debug-toolbar .codicon-debug-step-back, .debug-toolbar [aria-label^="Step Back"]').first().click();
  const after = await variableRow(page, '[-1]', /AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAY5HFKQ/);
  const second = await variableRow(page, '[-2]', /[A-Z2-7]{58}/);
  log(`after one step back: ${after} / ${second}`);
  const backTop = ((await page.locator('.debug-call-stack .monaco-list-row', { hasText: 'approval.teal' }).first().textContent()) ?? '').replace(/\s+/g, ' ');
  if (!/^== @ pc \d+/.test(backTop.trim())) throw new Error(`step back did not land on ==: ${backTop}`);
  results.debug = { stoppedAt: topText.trim(), stackTopAtFailure: before, afterStepBack: [after, second], frameAfterStepBack: backTop.trim() };
  await shot(page, 'debug-step-back');
  await page.locator('.debug-toolbar .codicon-debug-stop, .debug-toolbar .codicon-debug-disconnect').first().click();
  await page
    .locator('.debug-toolbar')
    .first()
    .waitFor({ state: 'hidden', timeout: 30_000 })
    .catch(() => undefined);
}

async function main(): Promise<void> {
  const vsixBytes = statSync(vsix).size;
  results.vsixBytes = vsixBytes;
  log(`.vsix is ${(vsixBytes / 1024).toFixed(0)} KiB`);
  if (vsixBytes >= 3 * 1024 * 1024) throw new Error('the .vsix is 3 MB or more');

  let approvalPath = '';
  let good = '';
  const editor = await startEditor({
    name: 'contracts',
    settings: { 'files.autoSave': 'off' },
    prepare: (workspace) => {
      cpSync(join(root, 'examples/counter'), join(workspace, 'counter'), { recursive: true, filter: (src) => !src.includes('/.tealworks') });
      approvalPath = join(workspace, 'counter/approval.teal');
      good = readFileSync(approvalPath, 'utf8');
      if (!good.includes(BUG[0])) throw new Error('the example no longer has the line the e2e plants its bug in');
      writeFileSync(approvalPath, good.replace(BUG[0], BUG[1]));
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
      await openFile(page, 'counter/approval.teal');
      await page.waitForFunction(() => document.querySelector('.monaco-editor .view-lines')?.textContent?.includes('onlyCreatorMayCreate'), undefined, {
        timeout: 30_000,
      });
      log('approval.teal opened');

      // 1. Simulate from the CodeLens: starts the devnet on demand, opens the panel, runs the create.
      await clickLens(page, /Simulate/, { file: 'counter/approval.teal' });
      log('clicked Simulate');
      let frame = await panelFrame(page, 120_000);
      await frame.waitForSelector('#verdict', { timeout: 120_000 });
      const verdict = (await frame.textContent('#verdict')) ?? '';
      log(`verdict: ${verdict}`);
      if (!/Would fail at txn 0/.test(verdict)) throw new Error(`expected the create to fail at txn 0, got ${verdict}`);
      const failure = (await frame.textContent('#failure')) ?? '';
      log(`failure: ${failure.replace(/\s+/g, ' ').slice(0, 300)}`);
      if (!/assert failed/.test(failure)) throw new Error('the failure message is not shown');
      if (!/approval\.teal:43:1/.test(failure)) throw new Error(`the failing use-site line (43) is not shown: ${failure}`);
      const logs = (await frame.textContent('#txns')) ?? '';
      if (!logs.includes('creating counter')) throw new Error('the log of the failing txn is not shown');
      results.simulateFailure = { verdict, failure: failure.replace(/\s+/g, ' ').trim() };
      await shot(page, 'simulate-failed');

      // The failing line is marked in the editor: a diagnostic at the macro's use site.
      await frame.click('#failing-line');
      await openProblems(page);
      const problem = page.locator('.markers-panel .monaco-list-row', { hasText: 'Simulation failed here' }).first();
      await problem.waitFor({ timeout: 30_000 });
      const problemText = (await problem.textContent()) ?? '';
      log(`problem: ${problemText}`);
      if (!problemText.includes('Ln 43')) throw new Error(`the simulate diagnostic is not on line 43: ${problemText}`);
      results.highlight = problemText;
      await shot(page, 'failing-line');
      await page
        .locator('.part.panel .codicon-panel-close, .part.panel [aria-label^="Hide Panel"], .part.panel [aria-label^="Close Panel"]')
        .first()
        .click()
        .catch(() => undefined);

      // 1b. Debug the failing group from the panel: the debugger opens on the failing line (the macro
      //     use site) with the stack visible; one step back shows the operands of the `==` whose 0
      //     the assert rejected.
      await debugFromPanel(page);

      // 2. Fix the program on disk (the editor reloads it), then deploy from the CodeLens.
      writeFileSync(approvalPath, good);
      await page.waitForFunction(() => !document.querySelector('.monaco-editor .view-lines')?.textContent?.includes('ZeroAddress'), undefined, {
        timeout: 30_000,
      });
      log('fixed the program');
      await clickLens(page, /Deploy/, { file: 'counter/approval.teal' });
      const deployed = page.locator('.notifications-toasts .notification-toast', { hasText: /Deployed app \d+/ }).first();
      await deployed.waitFor({ timeout: 120_000 });
      const deployedText = (await deployed.textContent()) ?? '';
      const appId = /Deployed app (\d+)/.exec(deployedText)![1]!;
      log(`deployed app ${appId}`);
      results.appId = appId;

      // 3. Call it through the simulate panel: simulate (would succeed), then sign and send.
      await clickLens(page, new RegExp(`Call app ${appId}`), { file: 'counter/approval.teal' });
      frame = await panelFrame(page);
      // An app with no ARC-56 spec: the panel runs nothing by itself and says what to type (issue 30, E7).
      await frame.waitForFunction(() => /has no ARC-56 spec/.test(document.querySelector('#notice')?.textContent ?? ''), undefined, { timeout: 60_000 });
      await frame.click('#simulate');
      await frame.waitForFunction(() => /Would succeed/.test(document.querySelector('#verdict')?.textContent ?? ''), undefined, { timeout: 60_000 });
      log('call would succeed');
      await frame.click('#send');
      await frame.waitForSelector('#sent', { timeout: 60_000 });
      const sent = (await frame.textContent('#sent')) ?? '';
      log(`sent: ${sent}`);
      const callLogs = (await frame.textContent('#txns')) ?? '';
      if (!callLogs.includes('"count" = 1')) throw new Error(`the call's state change is not shown: ${callLogs.slice(0, 300)}`);
      await shot(page, 'call-sent');

      // 4. The State Inspector shows the app's global state and its box.
      await page.locator('.activitybar .action-item a[aria-label^="Tealworks"], .activitybar [aria-label^="Tealworks"]').first().click();
      const view = page.locator('.pane', { hasText: 'State Inspector' }).first();
      await view.waitFor({ timeout: 30_000 });
      const countRow = page.locator('.monaco-list-row', { hasText: '"count" = 1' }).first();
      await countRow.waitFor({ timeout: 60_000 });
      const boxRow = page.locator('.monaco-list-row', { hasText: /"last" = [A-Z2-7]{58}/ }).first();
      await boxRow.waitFor({ timeout: 60_000 });
      const ownerRow = page.locator('.monaco-list-row', { hasText: /"owner" = [A-Z2-7]{58}/ }).first();
      await ownerRow.waitFor({ timeout: 30_000 });
      results.inspector = { count: await countRow.textContent(), box: await boxRow.textContent(), owner: await ownerRow.textContent() };
      log(`inspector: ${JSON.stringify(results.inspector)}`);
      await shot(page, 'inspector');

      // 5. Activation time as VS Code measured it.
      await runCommand(page, 'Developer: Show Running Extensions');
      const row = page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: /Tealworks|tealworks/ }).first();
      if (
        await row.waitFor({ timeout: 30_000 }).then(
          () => true,
          () => false,
        )
      ) {
        const text = (await row.textContent()) ?? '';
        const ms = /(\d+)\s*ms/.exec(text)?.[1];
        results.activationMs = ms ? Number(ms) : text;
        log(`activation: ${ms ?? '?'} ms (${text.replace(/\s+/g, ' ').slice(0, 160)})`);
        await shot(page, 'running-extensions');
      } else log('activation: the Running Extensions editor did not list the extension');
    },
  );
}

scenario.main(main);
