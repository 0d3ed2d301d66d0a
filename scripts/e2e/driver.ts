// Drives code-server (the browser build of VS Code) with headless Chromium: installs the packaged
// extension, opens a TEAL file whose macro use is wrong, then checks that the Problems panel shows
// the error at the use site and that hovering an opcode shows the SDK's docs.
//
//   E2E_DIR=.e2e node --import tsx scripts/e2e/driver.ts     (run.sh prepares everything first)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { artifacts, startEditor, vsix } from './common.js';
import type { Page } from 'playwright-core';

/** The use on line 7 expands to an unknown opcode defined on line 3. */
export const SAMPLE = [
  '#pragma version 10',
  '// checks the first argument against a constant',
  '#define checkArg txna ApplicationArgs 0; frobnicate; ==',
  'byte "hello"',
  'sha256',
  'pop',
  'checkArg',
  'return',
  '',
].join('\n');
const USE_LINE = 7;

function log(message: string): void {
  console.log(`e2e: ${message}`);
}

async function shot(page: Page, name: string): Promise<string> {
  const path = join(artifacts, `${name}.png`);
  await page.screenshot({ path });
  log(`screenshot ${path}`);
  return path;
}

async function main(): Promise<void> {
  log(`installing ${vsix}`);
  const editor = await startEditor({
    settings: { 'editor.hover.delay': 100 },
    prepare: (workspace) => writeFileSync(join(workspace, 'macro-error.teal'), SAMPLE),
  });
  let page: Page | undefined;
  try {
    page = await editor.openWorkbench({ width: 1400, height: 900 });
    log('workbench loaded');

    // Open the file through Quick Open.
    await page
      .locator('.monaco-workbench')
      .click({ position: { x: 700, y: 400 } })
      .catch(() => undefined);
    await page.keyboard.press('Control+P');
    await page.waitForSelector('.quick-input-widget input', { timeout: 30_000 });
    await page.keyboard.type('macro-error.teal');
    await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 30_000 });
    await page.keyboard.press('Enter');
    await page.waitForSelector('.monaco-editor .view-lines', { timeout: 30_000 });
    await page.waitForFunction(() => document.querySelector('.monaco-editor .view-lines')?.textContent?.includes('checkArg'), undefined, { timeout: 30_000 });
    log('file opened');

    // The grammar is active when opcodes get token colours other than the default.
    const language = await page.locator('.statusbar-item[id="status.editor.mode"]').textContent({ timeout: 30_000 });
    if (!/TEAL/i.test(language ?? '')) throw new Error(`language mode is ${language}, not TEAL`);
    log(`language mode: ${language?.trim()}`);

    // Hover over `sha256` shows the SDK's opcode docs.
    const token = page.locator('.monaco-editor .view-line span span', { hasText: /^sha256$/ }).first();
    await token.waitFor({ timeout: 15_000 });
    const hover = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content, .monaco-hover-content').filter({ hasText: 'Introduced' }).first();
    for (let attempt = 0; attempt < 5; attempt++) {
      // Measured on every attempt: CodeLenses arriving late push the lines down.
      const box = await token.boundingBox();
      if (!box) {
        // The line was being drawn again (semantic tokens, CodeLenses): wait for it and measure again.
        if (attempt === 4) throw new Error('sha256 is not visible');
        await token.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => undefined);
        continue;
      }
      await page.mouse.move(box.x + 2, box.y + box.height / 2);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
      if (
        await hover.waitFor({ timeout: 6_000 }).then(
          () => true,
          () => false,
        )
      )
        break;
    }
    const hoverText = (await hover.textContent({ timeout: 10_000 })) ?? '';
    if (!/sha256/.test(hoverText) || !/Introduced/.test(hoverText)) throw new Error(`hover does not show opcode docs: ${hoverText}`);
    log(`hover: ${hoverText.slice(0, 160).replace(/\s+/g, ' ')}`);
    await shot(page, 'hover');

    // Problems panel: the unknown opcode inside the macro body is reported at the use site.
    await page.keyboard.press('Control+Shift+M');
    const problem = page.locator('.markers-panel .monaco-list-row', { hasText: 'frobnicate' }).first();
    await problem.waitFor({ timeout: 60_000 });
    const problemText = (await problem.textContent()) ?? '';
    log(`problem: ${problemText}`);
    if (!problemText.includes(`Ln ${USE_LINE}`)) throw new Error(`problem is not at the use site (line ${USE_LINE}): ${problemText}`);
    // Its related information points into the #define body (line 3, where `frobnicate` is written).
    const related = page.locator('.markers-panel .monaco-list-row', { hasText: 'expanded from this macro definition' }).first();
    await related.waitFor({ timeout: 15_000 });
    const relatedText = (await related.textContent()) ?? '';
    if (!relatedText.includes('Ln 3, Col 42')) throw new Error(`related information does not point at the definition: ${relatedText}`);
    log(`related: ${relatedText}`);
    await shot(page, 'problems');

    // The status bar item fed by the server's tealworks/documentInfo notification.
    const status =
      (await page
        .locator('.statusbar-item', { hasText: /TEAL v10/ })
        .first()
        .textContent({ timeout: 15_000 })) ?? '';
    if (!/TEAL v10 · 2 errors/.test(status)) throw new Error(`unexpected status bar text: ${status}`);
    log(`status bar: ${status.trim()}`);

    // Completion after `txn ` lists transaction fields.
    await page
      .locator('.monaco-editor .view-line', { hasText: /^return$/ })
      .first()
      .click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('txn ');
    await page.keyboard.press('Control+Space').catch(() => undefined);
    // The list is long and virtualised: narrow it so the field is rendered whatever the sort order.
    await page.waitForSelector('.suggest-widget .monaco-list-row', { timeout: 20_000 });
    await page.keyboard.type('Applicat');
    const suggestion = page.locator('.suggest-widget .monaco-list-row', { hasText: 'ApplicationID' }).first();
    await suggestion.waitFor({ timeout: 20_000 });
    log('completion: txn fields offered');
    await shot(page, 'completion');
    log('PASS');
  } catch (e) {
    if (page) await shot(page, 'failure').catch(() => undefined);
    writeFileSync(join(artifacts, 'code-server.log'), editor.serverLog.join(''));
    throw e;
  } finally {
    await editor.close();
  }
}

main().catch((e: unknown) => {
  console.error(`e2e: FAIL: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
