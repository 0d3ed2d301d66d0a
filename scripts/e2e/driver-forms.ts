// The typed method form, read-only program views, High Contrast and workflow-deployed apps in a real
// VS Code (code-server + headless Chromium), from the packaged .vsix in a clean profile:
//   1. the sample project's tealworks.yaml runs through "Run Workflow"; the app it deployed gets a
//      "Call app N" lens offering the spec's methods, and the State Inspector decodes its state;
//   2. the e2e token registry (scripts/e2e/fixtures/forms: a method taking an ARC-56 struct, a
//      uint64[], an account and an asset) is deployed and its token minted by its own workflow; one
//      group opts in and claims the token, then register(...) is filled in the typed form: struct
//      fields by name, array items added, account and asset picked from the pickers, a bad value
//      flagged on its field, fixed, simulated and sent, the event and return value decoded;
//   3. "Show Expanded" and "Show Assembled" open read-only, clean documents that close silently;
//   4. with the High Contrast theme, the panel's buttons and inputs have a visible border.
// Screenshots land in .e2e/artifacts/forms-*.png.
//
//   E2E_DIR=.e2e node --import tsx scripts/e2e/driver-forms.ts   (`scripts/e2e/run.sh forms` prepares everything)
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { check, clickLens, e2eDir, openFile, panelFrame, quickInput, root, runCommand, runWorkflow, Scenario, showTealworks, startEditor } from './common.js';

const scenario = new Scenario('forms');
const log = (m: string) => scenario.log(m);
const results = scenario.results;
const shot = (page: Page, name: string) => scenario.shot(page, name);
const squash = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

/** Picks `method` in the "Call app N" quick pick; returns the labels it offered. */
async function pickMethod(page: Page, method: string): Promise<string[]> {
  await quickInput(page, /Call app/);
  await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 30_000 });
  const offered = (await page.locator('.quick-input-list .monaco-list-row').allTextContents()).map(squash);
  await page.keyboard.type(method);
  await page.waitForTimeout(400);
  await page.keyboard.press('Enter');
  return offered;
}

/** Text of the rows of the State Inspector under the app's row. */
async function inspectorRows(page: Page): Promise<string[]> {
  return (await page.locator('.pane', { hasText: 'State Inspector' }).locator('.monaco-list-row').allTextContents()).map(squash);
}

async function expandApp(page: Page, appId: string): Promise<void> {
  const pane = page.locator('.pane', { hasText: 'State Inspector' });
  const row = pane.locator('.monaco-list-row', { hasText: `App ${appId}` }).first();
  await row.waitFor({ timeout: 60_000 });
  if ((await row.getAttribute('aria-expanded')) === 'false') await row.click();
  const global = pane.locator('.monaco-list-row', { hasText: /^\s*Global/ }).first();
  if (await global.isVisible().catch(() => false)) if ((await global.getAttribute('aria-expanded')) === 'false') await global.click();
}

/** Checks a read-only program view: its tab, content, that it takes no edits, and that it closes silently. */
async function checkProgramView(page: Page, command: string, tab: RegExp, content: (text: string) => string | undefined): Promise<Record<string, unknown>> {
  await openFile(page, 'forms/approval.teal');
  await runCommand(page, command);
  const active = page.locator('.tabs-container .tab.active', { hasText: tab }).first();
  await active.waitFor({ timeout: 60_000 });
  await page.waitForTimeout(800);
  const label = squash(await active.textContent());
  const dirty = ((await active.getAttribute('class')) ?? '').includes('dirty');
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  // The editor renders spaces as no-break spaces; only the visible lines are in the DOM, so the
  // text checked is the top and the end of the document.
  const lines = async () => ((await editor.locator('.view-lines').textContent()) ?? '').replace(/\u00a0/g, ' ');
  const before = await lines();
  await editor.click({ position: { x: 200, y: 40 } });
  await page.keyboard.press('Control+End');
  await page.waitForTimeout(500);
  const end = await lines();
  await page.keyboard.press('Control+Home');
  await page.waitForTimeout(300);
  const problem = content(`${before}\n${end}`);
  const lenses = await page.locator('.editor-group-container.active .codelens-decoration a').allTextContents();
  check(lenses.length === 0, `the read-only view offers program actions: ${lenses.join(' | ')}`);
  check(!problem, `${label}: ${problem}`);
  check(!/Untitled/i.test(label), `the view opened as an untitled document: ${label}`);
  check(!dirty, `the view ${label} opened dirty`);
  // Typing into it changes nothing: the editor says it is read-only.
  await page.keyboard.type('zz');
  const refusal = page.locator('.monaco-editor-overlaymessage', { hasText: /read-only/i }).first();
  const refused = await refusal.waitFor({ timeout: 5_000 }).then(
    () => true,
    () => false,
  );
  const after = await lines();
  const refusalText = refused ? squash(await refusal.textContent()) : '';
  check(after === before, `typing changed the read-only view ${label}`);
  check(refused, `the editor did not say the view ${label} is read-only`);
  const stillClean = !((await active.getAttribute('class')) ?? '').includes('dirty');
  check(stillClean, `the view ${label} became dirty`);
  return { label, dirty, refusal: refusalText, firstLines: squash(before).slice(0, 160) };
}

async function closeActiveSilently(page: Page, tab: RegExp): Promise<void> {
  await page.keyboard.press('Control+W');
  const closed = await page
    .locator('.tabs-container .tab', { hasText: tab })
    .first()
    .waitFor({ state: 'detached', timeout: 30_000 })
    .then(
      () => true,
      () => false,
    );
  const dialog = await page
    .locator('.monaco-dialog-box')
    .first()
    .isVisible()
    .catch(() => false);
  check(!dialog, 'closing the read-only view asked something');
  check(closed, 'the read-only view did not close');
}

/** The computed border of the panel's controls. */
async function borders(frame: Frame): Promise<Array<{ what: string; width: string; style: string; color: string; background: string }>> {
  return frame.evaluate(() =>
    Array.from(document.querySelectorAll('button, input, select'))
      .filter((e) => (e as HTMLElement).offsetParent !== null)
      .slice(0, 40)
      .map((e) => {
        const s = getComputedStyle(e);
        return {
          what: `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} ${(e.textContent ?? '').trim().slice(0, 20)}`.trim(),
          width: s.borderTopWidth,
          style: s.borderTopStyle,
          color: s.borderTopColor,
          background: s.backgroundColor,
        };
      }),
  );
}

async function main(): Promise<void> {
  const editor = await startEditor({
    name: 'forms',
    settings: { 'files.autoSave': 'off' },
    prepare: (workspace) => {
      const noState = (src: string) => !src.includes('/.tealworks');
      cpSync(join(root, 'extension/sample'), join(workspace, 'sample'), { recursive: true, filter: noState });
      cpSync(join(root, 'scripts/e2e/fixtures/forms'), join(workspace, 'forms'), { recursive: true, filter: noState });
    },
  });
  const settingsFile = join(e2eDir, 'cs-data-forms/User/settings.json');
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
      log('workbench loaded');

      // 1. The sample's tealworks.yaml deploys the counter; the editor links the app with its source
      //    and spec: the lens offers the spec's methods and the inspector decodes the state.
      const sampleRun = await runWorkflow(page, 'sample/tealworks.yaml');
      log(`sample workflow: ${JSON.stringify(sampleRun)}`);
      const sampleApp = /created app (\d+)/.exec(sampleRun.join('\n'))?.[1];
      check(sampleApp, `the sample workflow reported no created app: ${sampleRun.join(' | ')}`);
      await shot(page, '01-sample-workflow');
      const lens = await clickLens(page, new RegExp(`Call app ${sampleApp}`), { file: 'sample/approval.teal', ms: 60_000 });
      const offered = await pickMethodOffered(page);
      log(`lens "${lens}" offers ${JSON.stringify(offered)}`);
      check(
        offered.some((o) => /increment/.test(o)) && offered.some((o) => /get_count/.test(o)),
        `the lens of the workflow's app does not offer the spec's methods: ${offered.join(' | ')}`,
      );
      check(
        offered.some((o) => /Adds amount to the count/.test(o)),
        `the method pick lacks the spec's descriptions: ${offered.join(' | ')}`,
      );
      await shot(page, '02-workflow-app-methods');
      await page.keyboard.press('Escape');
      await showTealworks(page);
      await expandApp(page, sampleApp!);
      await page
        .locator('.monaco-list-row', { hasText: /"?count"? = 5/ })
        .first()
        .waitFor({ timeout: 60_000 });
      const sampleState = await inspectorRows(page);
      log(`inspector: ${JSON.stringify(sampleState)}`);
      check(!sampleState.some((r) => /0x636f756e74/i.test(r)), `the inspector shows the key "count" as raw hex: ${sampleState.join(' | ')}`);
      check(
        sampleState.some((r) => r.startsWith(`App ${sampleApp}`) && r.includes('sample/approval.teal')),
        `the inspector does not link the workflow app with its source: ${sampleState.join(' | ')}`,
      );
      check(
        sampleState.some((r) => /^count = 5\s*uint64$/.test(r)),
        `"count" is not decoded by the spec's type: ${sampleState.join(' | ')}`,
      );
      results.sampleWorkflow = { app: sampleApp, lens, offered, inspector: sampleState };
      await shot(page, '03-workflow-app-state');

      // 2. The registry fixture: its workflow deploys it and mints the token.
      const formsRun = await runWorkflow(page, 'forms/forms.workflow.yaml');
      log(`forms workflow: ${JSON.stringify(formsRun)}`);
      const appId = /created app (\d+)/.exec(formsRun.join('\n'))?.[1];
      const token = /returned (\d+)/.exec(formsRun.join('\n'))?.[1];
      check(appId && token, `the forms workflow reported no app or token: ${formsRun.join(' | ')}`);
      results.registry = { appId, token };

      // 2a. One group: opt in to the token (asset transfer of 0 to oneself), then claim(token).
      await clickLens(page, new RegExp(`Call app ${appId}`), { file: 'forms/approval.teal', ms: 60_000 });
      const registryMethods = await pickMethod(page, 'claim');
      check(
        registryMethods.some((m) => /register/.test(m)),
        `the registry's methods are not offered: ${registryMethods.join(' | ')}`,
      );
      let frame = await panelFrame(page);
      await frame.waitForSelector('fieldset[data-index="0"] [data-field="args.0"]', { timeout: 60_000 });
      check((await frame.getAttribute('fieldset[data-index="0"] [data-field="args.0"]', 'list')) === 'tw-assets', 'the asset argument has no asset picker');
      // The sender is a picker once the panel has the devnet's accounts (a plain field before).
      const senderPicker = 'fieldset[data-index="0"] select[data-field="sender"]';
      const picker = await frame.waitForSelector(senderPicker, { timeout: 120_000 }).then(
        () => true,
        () => false,
      );
      check(picker, `no account to pick as sender: ${squash(await frame.textContent('#form').catch(() => ''))}`);
      const me = await frame.inputValue(senderPicker);
      check(/^[A-Z2-7]{58}$/.test(me), `no sender account is selected: ${me}`);
      await frame.selectOption('fieldset[data-index="0"] legend select[data-field="kind"]', 'assetTransfer');
      await frame.fill('fieldset[data-index="0"] [data-field="receiver"]', me);
      await frame.fill('fieldset[data-index="0"] [data-field="amount"]', '0');
      await frame.fill('fieldset[data-index="0"] [data-field="assetId"]', token!);
      await frame.click('button:has-text("+ App call")');
      await frame.fill('fieldset[data-index="1"] [data-field="appId"]', appId!);
      await frame.selectOption('fieldset[data-index="1"] select[data-field="source"]', 'forms/approval.teal');
      await frame.selectOption('fieldset[data-index="1"] select[data-field="method"]', 'claim(asset)void');
      await frame.fill('fieldset[data-index="1"] [data-field="args.0"]', token!);
      await shot(page, '04-optin-claim-form');
      await frame.click('#send');
      await frame.waitForSelector('#sent, #error', { timeout: 60_000 });
      const claimError = await frame.$('#error');
      check(!claimError, `opt-in and claim failed: ${squash(await claimError?.textContent())}`);
      const claimReport = squash(await frame.textContent('#txns'));
      log(`claim: ${claimReport.slice(0, 300)}`);
      check(/asset transfer/.test(claimReport), `the claim's inner asset transfer is not shown: ${claimReport}`);
      await shot(page, '05-optin-claim-sent');

      // 2b. register(profile, scores, friend, token) in the typed form.
      await clickLens(page, new RegExp(`Call app ${appId}`), { file: 'forms/approval.teal', ms: 60_000 });
      await pickMethod(page, 'register');
      frame = await panelFrame(page);
      await frame.waitForSelector('[data-field="args.0.name"]', { timeout: 60_000 });
      const formText = squash(await frame.textContent('#form'));
      log(`form: ${formText.slice(0, 600)}`);
      for (const want of [
        'profile (Profile (string,uint64))',
        'Who registers',
        'name',
        'level',
        'scores',
        'Scores added to the level',
        'friend',
        'token',
        'the level plus the sum of the scores',
      ])
        check(formText.includes(want), `the typed form lacks "${want}": ${formText.slice(0, 600)}`);
      const structFields = await frame.$$eval('[data-field="args.0"] label.sub', (ls) => ls.map((l) => (l.textContent ?? '').replace(/\s+/g, ' ').trim()));
      log(`struct editor: ${JSON.stringify(structFields)}`);
      check(
        structFields.length === 2 && /^name \(string\)/.test(structFields[0]!) && /^level \(uint64\)/.test(structFields[1]!),
        `the struct editor does not show the named fields: ${JSON.stringify(structFields)}`,
      );
      const accountsOffered = await frame.$$eval('#tw-accounts option', (os) => os.map((o) => (o as HTMLOptionElement).value));
      const assetsOffered = await frame.$$eval('#tw-assets option', (os) => os.map((o) => (o as HTMLOptionElement).value));
      log(`pickers: accounts ${JSON.stringify(accountsOffered)}, assets ${JSON.stringify(assetsOffered)}`);
      check(accountsOffered.includes(me), `the account picker does not offer ${me}`);
      check(assetsOffered.includes(token!), `the asset picker does not offer the claimed token ${token}: ${JSON.stringify(assetsOffered)}`);
      check((await frame.getAttribute('[data-field="args.2"]', 'list')) === 'tw-accounts', 'the account argument has no account picker');
      check((await frame.getAttribute('[data-field="args.3"]', 'list')) === 'tw-assets', 'the asset argument has no asset picker');
      await shot(page, '06-typed-form');

      await frame.fill('[data-field="args.0.name"]', 'alice');
      await frame.fill('[data-field="args.0.level"]', 'seven');
      await frame.click('[data-field="args.1"] button:has-text("+ uint64")');
      await frame.click('[data-field="args.1"] button:has-text("+ uint64")');
      await frame.fill('[data-field="args.1.0"]', '10');
      await frame.fill('[data-field="args.1.1"]', '20');
      // The pickers are datalists: choose the offered values.
      await frame.fill('[data-field="args.2"]', accountsOffered[0]!);
      await frame.fill('[data-field="args.3"]', token!);
      await frame.click('#simulate');
      await frame.waitForSelector('.invalid', { timeout: 60_000 });
      const invalidField = await frame.getAttribute('.invalid', 'data-field');
      const fieldError = squash(await frame.textContent('.field-error'));
      log(`bad field ${invalidField}: ${fieldError}`);
      results.badField = { field: invalidField, message: fieldError };
      check(invalidField === 'args.0.level', `the bad struct field is not the one highlighted: ${invalidField}`);
      check(
        /level/.test(fieldError) || /whole number|integer|uint64|not a number/i.test(fieldError),
        `the message does not say what is wrong with level: ${fieldError}`,
      );
      await shot(page, '07-bad-field');

      await frame.fill('[data-field="args.0.level"]', '7');
      await frame.click('#simulate');
      // The old error stays on screen until the new result arrives: wait for the verdict itself.
      const simulated = await frame
        .waitForFunction(() => /Would succeed/.test(document.querySelector('#verdict')?.textContent ?? ''), undefined, { timeout: 60_000 })
        .then(
          () => true,
          () => false,
        );
      check(simulated, `register did not simulate: ${squash(await frame.textContent('#result'))}`);
      check(!(await frame.$('.invalid')), 'the fixed field is still highlighted');
      const simReport = squash(await frame.textContent('#txns'));
      log(`register simulated: ${simReport.slice(0, 400)}`);
      check(/returns\s*37(?!\d)/.test(simReport), `the return value 7 + 10 + 20 is not shown decoded: ${simReport}`);
      const event = new RegExp(`event Registered\\(name="?alice"?, total=37, friend="?${accountsOffered[0]}"?, token=${token}, balance=10\\)`);
      check(event.test(simReport), `the Registered event is not decoded: ${simReport}`);
      await shot(page, '08-register-simulated');
      await frame.click('#send');
      await frame.waitForSelector('#sent', { timeout: 60_000 });
      const sentReport = squash(await frame.textContent('#txns'));
      check(/last_total"? = 37/.test(sentReport), `the state change last_total = 37 is not shown: ${sentReport}`);
      check(/last"? = \{ name: "alice", level: 7 \}/.test(sentReport), `the struct written to "last" is not shown decoded: ${sentReport}`);
      results.register = { simulated: simReport, sent: sentReport };
      await shot(page, '09-register-sent');

      // The inspector decodes the struct kept in global "last" by the spec's Profile type.
      await showTealworks(page);
      await runCommand(page, 'Tealworks: Refresh State');
      // Room for the registry's rows: fold the sample app's.
      const sampleRow = page
        .locator('.pane', { hasText: 'State Inspector' })
        .locator('.monaco-list-row', { hasText: `App ${sampleApp}` })
        .first();
      // The refresh rebuilds the tree: wait for the sample app's row to be back before reading it.
      await sampleRow.waitFor({ timeout: 60_000 });
      if ((await sampleRow.getAttribute('aria-expanded')) === 'true') await sampleRow.click();
      await expandApp(page, appId!);
      await page
        .locator('.monaco-list-row', { hasText: /last_total"? = 37/ })
        .first()
        .waitFor({ timeout: 60_000 });
      const registryState = await inspectorRows(page);
      log(`registry state: ${JSON.stringify(registryState)}`);
      check(
        registryState.some((r) => /"?last"? = .*alice/.test(r) && /7/.test(r)),
        `the struct in "last" is not decoded: ${registryState.join(' | ')}`,
      );
      check(
        registryState.some((r) => new RegExp(`"?token"? = ${token}`).test(r)),
        `"token" is not decoded: ${registryState.join(' | ')}`,
      );
      results.registryState = registryState;
      await shot(page, '10-registry-state');

      // 3. Read-only program views.
      const expanded = await checkProgramView(page, 'TEAL: Show Expanded Program', /\(expanded\)/, (t) =>
        !/^#pragma version 10\s*txn ApplicationID/.test(t)
          ? 'the expanded program does not start with the code (comments and #define lines gone)'
          : t.includes('#define')
            ? 'the expanded program still has #define lines'
            : !t.includes('byte 0x151f7c75')
              ? 'the expanded program does not inline RETURN_PREFIX'
              : t.includes('RETURN_PREFIX')
                ? 'a macro name is left in the expanded program'
                : undefined,
      );
      log(`expanded view: ${JSON.stringify(expanded)}`);
      await shot(page, '11-expanded-readonly');
      await closeActiveSilently(page, /\(expanded\)/);
      const assembled = await checkProgramView(page, 'TEAL: Show Assembled Bytes', /\(assembled\)/, (t) =>
        !/\d+ bytes, 1 page of 2048/.test(t)
          ? 'the assembled view has no size line'
          : !/txn ApplicationID/.test(t)
            ? 'the assembled view has no disassembly'
            : undefined,
      );
      log(`assembled view: ${JSON.stringify(assembled)}`);
      await shot(page, '12-assembled-readonly');
      await closeActiveSilently(page, /\(assembled\)/);
      results.views = { expanded, assembled };

      // 4. High Contrast: the theme comes from the settings file; the panel's controls get a border.
      await clickLens(page, new RegExp(`Call app ${appId}`), { file: 'forms/approval.teal', ms: 60_000 });
      await pickMethod(page, 'register');
      frame = await panelFrame(page);
      await frame.waitForSelector('[data-field="args.0.name"]', { timeout: 60_000 });
      const before = await borders(frame);
      // The theme picker, as a user switches: it writes workbench.colorTheme to the user settings.
      await page.keyboard.press('Control+Shift+P');
      await page.waitForSelector('.quick-input-widget input', { timeout: 20_000 });
      await page.keyboard.type('Preferences: Color Theme');
      // The palette also offers "Browse Color Themes in Marketplace": click the picker's own row.
      const themeRow = page
        .locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: /^Preferences: Color Theme$/ }) })
        .first();
      await themeRow.waitFor({ timeout: 20_000 });
      await themeRow.click();
      await quickInput(page, /Color Theme/, 20_000).catch(() => undefined);
      await page.waitForTimeout(500);
      await page.keyboard.type('Default High Contrast');
      // Shown as "Dark High Contrast", its id (what settings.json keeps) is "Default High Contrast".
      const hcRow = page.locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: /^\s*Dark High Contrast\s*$/ }) }).first();
      await hcRow.waitFor({ timeout: 20_000 });
      await hcRow.click();
      await page.waitForFunction(() => document.querySelector('.monaco-workbench')?.classList.contains('hc-black'), undefined, { timeout: 30_000 });
      const saved = await (async () => {
        for (let i = 0; i < 20; i++) {
          const theme = (JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>)['workbench.colorTheme'];
          if (theme) return theme;
          await page!.waitForTimeout(250);
        }
        return undefined;
      })();
      check(saved === 'Default High Contrast', `settings.json has workbench.colorTheme ${JSON.stringify(saved)}`);
      await frame.waitForFunction(() => document.body.classList.contains('vscode-high-contrast'), undefined, { timeout: 30_000 });
      await page.waitForTimeout(500);
      const hc = await borders(frame);
      log(`High Contrast borders: ${JSON.stringify(hc.slice(0, 6))}`);
      const invisible = hc.filter(
        (b) => b.style === 'none' || parseFloat(b.width) < 1 || /rgba\(0, 0, 0, 0\)|transparent/.test(b.color) || b.color === b.background,
      );
      check(
        hc.some((b) => /^button/.test(b.what)),
        'no buttons found in the panel',
      );
      check(invisible.length === 0, `controls without a visible border in High Contrast: ${JSON.stringify(invisible)}`);
      results.highContrast = { before: before.slice(0, 6), after: hc };
      await shot(page, '13-high-contrast');
    },
  );
}

/** The method labels the "Call app N" quick pick offers (without picking one). */
async function pickMethodOffered(page: Page): Promise<string[]> {
  await quickInput(page, /Call app/);
  await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 30_000 });
  await page.waitForTimeout(300);
  return (await page.locator('.quick-input-list .monaco-list-row').allTextContents()).map(squash);
}

scenario.main(main);
