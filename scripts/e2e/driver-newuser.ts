// The new user's first hour in a real VS Code (code-server + headless Chromium), from the packaged
// .vsix in a clean profile and an empty folder: the walkthrough creates the sample project, Deploy
// asks for the TMPL_ values in its form (one is typed), "Call app N" offers the spec's methods and
// the named, typed form (a bad value is highlighted on its field, then a good one is simulated and
// sent), the State Inspector shows the app; then the devnet is restarted (confirming the discard of
// its in-memory chain) and neither a lens nor an inspector entry points at the app that is gone.
// Screenshots land in .e2e/artifacts/newuser-*.png.
//
//   E2E_DIR=.e2e node --import tsx scripts/e2e/driver-newuser.ts   (`scripts/e2e/run.sh newuser` prepares everything)
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { check, clickLens, openFile, panelFrame, quickInput, runCommand, Scenario, startEditor } from './common.js';

const scenario = new Scenario('newuser');
const log = (m: string) => scenario.log(m);
const results = scenario.results;
const shot = (page: Page, name: string) => scenario.shot(page, name);

async function openWalkthrough(page: Page): Promise<void> {
  await runCommand(page, 'Welcome: Open Walkthrough');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Tealworks contracts' }).first();
  await row.waitFor({ timeout: 30_000 });
  await row.click();
}

async function lensTitles(page: Page): Promise<string[]> {
  return page.$$eval('.codelens-decoration a', (as) => as.map((a) => a.textContent ?? ''));
}

async function main(): Promise<void> {
  const editor = await startEditor({ name: 'newuser', settings: { 'files.simpleDialog.enable': true } });
  const workspace = editor.workspace;
  log('installed the .vsix into a clean profile');
  let page: Page | undefined;
  await scenario.run(
    editor,
    () => page,
    async () => {
      page = await editor.openWorkbench({ width: 1600, height: 1000 });
      await page
        .locator('.monaco-workbench')
        .click({ position: { x: 800, y: 500 } })
        .catch(() => undefined);
      log('workbench loaded on an empty folder');

      // 1. The walkthrough: its first step creates the sample project in a folder we pick.
      await openWalkthrough(page);
      // The step's own button (the step itself is a button whose text contains this one's): the
      // innermost element with exactly that text.
      await page.getByText('Create the Sample Project', { exact: true }).first().waitFor({ timeout: 60_000 });
      const create = page.getByText('Create the Sample Project', { exact: true }).first();
      await create.waitFor({ timeout: 60_000 });
      await shot(page, '1-walkthrough');
      // The step's button (a second click when the first only selected the step).
      await create.click();
      const dialogShown = () =>
        page!
          .locator('.quick-input-widget .quick-input-title', { hasText: 'Folder for the Tealworks counter sample' })
          .first()
          .isVisible()
          .catch(() => false);
      for (let i = 0; i < 10 && !(await dialogShown()); i++) await page.waitForTimeout(500);
      if (!(await dialogShown())) await create.click();
      await quickInput(page, /Folder for the Tealworks counter sample|Create Sample Here/);
      const input = page.locator('.quick-input-widget input').first();
      await input.fill(`${workspace}/`);
      await page.waitForTimeout(800);
      await page.keyboard.press('Enter');
      await page.waitForTimeout(1500);
      // The simple dialog may want its OK button once the folder is the current one.
      const ok = page.locator('.quick-input-widget .monaco-button', { hasText: 'Create Sample Here' }).first();
      if (await ok.isVisible().catch(() => false)) await ok.click();
      await page.waitForFunction(
        () => Array.from(document.querySelectorAll('.monaco-editor .view-lines')).some((v) => v.textContent?.includes('RETURN_PREFIX')),
        undefined,
        { timeout: 60_000 },
      );
      for (const f of ['approval.teal', 'clear.teal', 'counter.arc56.json', 'tealworks.yaml'])
        if (!existsSync(join(workspace, f))) throw new Error(`the sample has no ${f}`);
      log('sample project created and approval.teal opened');
      results.sampleFiles = true;
      await shot(page, '2-sample-open');

      // 2. Deploy from the CodeLens: the template form asks for TMPL_MAX_INCREMENT (typed) and the flags.
      await clickLens(page, /Deploy/);
      await quickInput(page, /Template values for .*approval\.teal \(1\/3\)/, 180_000);
      const prompt = (await page.locator('.quick-input-widget .quick-input-message').first().textContent()) ?? '';
      log(`form: ${prompt}`);
      if (!/TMPL_MAX_INCREMENT \(uint64 from the ARC-56 spec\)/.test(prompt)) throw new Error(`the form does not name the spec's type: ${prompt}`);
      await page.keyboard.type('ten');
      await page.waitForTimeout(600);
      const invalid = (await page.locator('.quick-input-widget .quick-input-message').first().textContent()) ?? '';
      if (!/whole number/.test(invalid)) throw new Error(`a bad template value is not flagged: ${invalid}`);
      await shot(page, '3-template-invalid');
      await page.keyboard.press('Control+A');
      await page.keyboard.type('10');
      await page.waitForTimeout(300);
      await shot(page, '4-template-form');
      await page.keyboard.press('Enter');
      await quickInput(page, /\(2\/3\)/);
      await page.keyboard.type('true');
      await page.waitForTimeout(300);
      await page.keyboard.press('Enter');
      await quickInput(page, /\(3\/3\)/);
      await page.keyboard.press('Enter');
      const deployed = page.locator('.notifications-toasts .notification-toast', { hasText: /Deployed app \d+/ }).first();
      await deployed.waitFor({ timeout: 180_000 });
      const appId = /Deployed app (\d+)/.exec((await deployed.textContent()) ?? '')![1]!;
      results.appId = appId;
      log(`deployed app ${appId} with TMPL_MAX_INCREMENT = 10`);
      await shot(page, '5-deployed');

      // 3. Call it: the lens appears without switching editors; pick the method; the typed form.
      await openFile(page, 'approval.teal');
      await clickLens(page, new RegExp(`Call app ${appId}`), { ms: 30_000 });
      await quickInput(page, /Call app/);
      await page.keyboard.type('increment');
      await page.waitForTimeout(300);
      await page.keyboard.press('Enter');
      const frame = await panelFrame(page);
      await frame.waitForSelector('[data-field="args.0"]', { timeout: 60_000 });
      const formText = (await frame.textContent('#form')) ?? '';
      if (!/amount/.test(formText) || !/\(uint64\)/.test(formText) || !/below the MAX_INCREMENT/.test(formText))
        throw new Error(`the form lacks the ARC-56 name, type or description: ${formText.slice(0, 400)}`);
      const placeholder = await frame.getAttribute('[data-field="args.0"]', 'placeholder');
      if (placeholder !== 'default 1') throw new Error(`the ARC-56 default is not offered: ${placeholder}`);
      if (await frame.$('#verdict')) throw new Error('a call was simulated before its arguments were given');
      results.form = { text: formText.replace(/\s+/g, ' ').slice(0, 300), placeholder };
      await frame.fill('[data-field="args.0"]', 'abc');
      await frame.click('#simulate');
      await frame.waitForSelector('.invalid[data-field="args.0"]', { timeout: 60_000 });
      const fieldError = (await frame.textContent('.field-error')) ?? '';
      log(`bad field: ${fieldError}`);
      results.fieldError = fieldError;
      await shot(page, '6-form-invalid');
      await frame.fill('[data-field="args.0"]', '5');
      await frame.click('#simulate');
      await frame.waitForFunction(() => /Would succeed/.test(document.querySelector('#verdict')?.textContent ?? ''), undefined, { timeout: 60_000 });
      await shot(page, '7-call-simulated');
      await frame.click('#send');
      await frame.waitForSelector('#sent', { timeout: 60_000 });
      const returned = (await frame.textContent('#txns')) ?? '';
      if (!/returns\s*5(?!\d)/.test(returned)) throw new Error(`the call's return value is not shown: ${returned.slice(0, 300)}`);
      log('increment(5) sent, returned 5');
      await shot(page, '8-call-sent');

      // 4. The State Inspector lists the app; then the devnet restarts (the discard is confirmed).
      await page.locator('.activitybar [aria-label^="Tealworks"]').first().click();
      const appRow = page.locator('.monaco-list-row', { hasText: `App ${appId}` }).first();
      await appRow.waitFor({ timeout: 60_000 });
      await page
        .locator('.monaco-list-row', { hasText: /count"? = 5/ })
        .first()
        .waitFor({ timeout: 60_000 });
      await shot(page, '9-inspector');
      await runCommand(page, 'Tealworks: Stop Devnet');
      const discard = page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Stop and Discard' }).first();
      await discard.waitFor({ timeout: 60_000 });
      await shot(page, '10-confirm-discard');
      await discard.click();
      await runCommand(page, 'Tealworks: Start Devnet');
      await page
        .locator('.notifications-toasts .notification-toast', { hasText: /Starting the Tealworks devnet/ })
        .first()
        .waitFor({ state: 'detached', timeout: 120_000 })
        .catch(() => undefined);
      // The panel says when the discarded chain is gone (it clears the report naming its app).
      const cleared = await frame
        .waitForFunction(() => /Cleared/.test(document.querySelector('#notice')?.textContent ?? ''), undefined, { timeout: 120_000 })
        .then(
          () => true,
          () => false,
        );
      check(
        cleared,
        `the panel does not say the discarded chain is gone: ${((await frame.textContent('#result').catch(() => '')) ?? '').replace(/\s+/g, ' ').slice(0, 300)}`,
      );
      await openFile(page, 'approval.teal');
      await page.keyboard.press('Control+Home');
      await page
        .locator('.codelens-decoration a', { hasText: /Deploy/ })
        .first()
        .waitFor({ timeout: 60_000 });
      await page.waitForTimeout(2000);
      const lenses = await lensTitles(page);
      const stale = lenses.filter((t) => /Call app/.test(t));
      // Rows of the side bar's views only, case-sensitive: a notification toast still showing
      // "Deployed app 1001" is a list row too, and is not the inspector.
      const inspectorStale = await page.locator('.part.sidebar .monaco-list-row', { hasText: new RegExp(`\\bApp ${appId}\\b`) }).count();
      results.afterRestart = { lenses, inspectorStale };
      log(`after the restart: lenses ${JSON.stringify(lenses)}, inspector rows for app ${appId}: ${inspectorStale}`);
      await shot(page, '11-after-restart');
      if (stale.length) throw new Error(`a stale lens survived the restart: ${stale.join(', ')}`);
      if (inspectorStale) throw new Error(`the inspector still lists app ${appId} of the discarded chain`);
      if (await frame.$('#verdict')) throw new Error('the panel still shows a report from the discarded chain');

      // 5. The walkthrough: the sample and deploy steps are ticked (they succeeded), simulate is not.
      await openWalkthrough(page);
      await page
        .getByText('Create the Sample Project', { exact: true })
        .first()
        .waitFor({ timeout: 30_000 })
        .catch(() => undefined);
      await page.waitForTimeout(1000);
      // A ticked step's checkbox codicon carries the `complete` class.
      const steps = await page.evaluate(() =>
        Array.from(document.querySelectorAll('.getting-started-step')).map((s) => ({
          title: s.querySelector('.step-title')?.textContent ?? '',
          ticked: !!s.querySelector('.codicon.complete'),
        })),
      );
      results.walkthrough = steps;
      log(`walkthrough: ${JSON.stringify(steps)}`);
      const ticked = steps.filter((x) => x.ticked).map((x) => x.title);
      if (!ticked.some((t) => /counter sample/.test(t)) || !ticked.some((t) => /Deploy/.test(t)))
        throw new Error(`the sample and deploy steps are not ticked: ${JSON.stringify(steps)}`);
      if (ticked.some((t) => /Simulate/.test(t))) throw new Error('the simulate step is ticked though it was never run');
      await shot(page, '12-walkthrough-ticked');
    },
  );
}

scenario.main(main);
