// Damaged chain data in a real VS Code (code-server + headless Chromium), from the packaged .vsix in
// a clean profile with `tealworks.devnet.persist` on:
//   1. "Start Devnet" keeps the chain in the extension's storage; three payments are sent to it
//      (through the SDK, which finds the devnet by its data directory's lock) and it is stopped;
//   2. the journal's last record is damaged on disk;
//   3. "Start Devnet" asks before touching anything: a modal dialog says which rounds are kept and
//      where the damaged part goes, with the SDK's account of the damage; the journal is unchanged;
//   4. "Recover" starts the devnet on the intact rounds, with the damaged bytes moved aside into
//      journal.bin.damaged-<time>, and the devnet takes new transactions.
// Screenshots land in .e2e/artifacts/recover-*.png.
//
//   E2E_DIR=.e2e node --import tsx scripts/e2e/driver-recover.ts   (`scripts/e2e/run.sh recover` prepares everything)
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { Tealworks, algos } from '../../sdk/src/index.js';
import { check, e2eDir, runCommand, Scenario, startEditor } from './common.js';

const scenario = new Scenario('recover');
const log = (m: string) => scenario.log(m);
const results = scenario.results;

/** The extension's devnet data directory (in code-server's workspace storage), once it exists. */
async function devnetDir(page: Page, ms = 120_000): Promise<string> {
  const storage = join(e2eDir, 'cs-data-recover/User/workspaceStorage');
  const until = Date.now() + ms;
  while (Date.now() < until) {
    for (const ws of existsSync(storage) ? readdirSync(storage) : []) {
      const dir = join(storage, ws, 'tealworks.tealworks', 'devnet');
      if (existsSync(join(dir, 'devnet.lock'))) return dir;
    }
    await page.waitForTimeout(500);
  }
  throw new Error(`no persistent devnet appeared under ${storage}`);
}

/** Waits until the devnet holding `dir` has published its services (or, with `gone`, let go of it). */
async function lockState(page: Page, dir: string, gone: boolean, ms = 120_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const lock = join(dir, 'devnet.lock');
    if (gone ? !existsSync(lock) : existsSync(lock) && readFileSync(lock, 'utf8').includes('"node"')) return;
    await page.waitForTimeout(300);
  }
  throw new Error(`the devnet lock in ${dir} did not ${gone ? 'go away' : 'get published'}`);
}

async function main(): Promise<void> {
  const editor = await startEditor({ name: 'recover', settings: { 'tealworks.devnet.persist': true } });
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

      // 1. A persistent chain with a few rounds, then a clean stop.
      await runCommand(page, 'Tealworks: Start Devnet');
      const dir = await devnetDir(page);
      await lockState(page, dir, false);
      log(`devnet data in ${dir}`);
      const tw = await Tealworks.connect.devnet({ dataDir: dir });
      let round: bigint;
      try {
        for (let i = 0; i < 3; i++) await tw.send.payment({ sender: tw.account.dispenser, receiver: tw.account.random(), amount: algos(1) });
        round = (await tw.node.status()).lastRound;
      } finally {
        await tw.close();
      }
      results.roundBeforeDamage = String(round);
      await runCommand(page, 'Tealworks: Stop Devnet');
      await lockState(page, dir, true);
      log(`stopped at round ${round}`);

      // 2. The last round's record is damaged.
      const journal = join(dir, 'ledger', 'journal.bin');
      const bytes = readFileSync(journal);
      bytes[bytes.length - 2] ^= 0x40;
      writeFileSync(journal, bytes);

      // 3. Starting again asks first, and changes nothing until answered.
      await runCommand(page, 'Tealworks: Start Devnet');
      const dialog = page.locator('.monaco-dialog-box', { hasText: /is damaged and was not opened/ }).first();
      await dialog.waitFor({ timeout: 120_000 });
      const text = ((await dialog.textContent()) ?? '').replace(/\s+/g, ' ');
      results.dialog = text;
      log(`dialog: ${text.slice(0, 400)}`);
      check(text.includes(`Rounds 0 to ${round - 1n} are intact and kept`), `the dialog does not say which rounds are kept: ${text}`);
      check(/moved aside into a separate file, not deleted/.test(text), `the dialog does not say where the damaged part goes: ${text}`);
      check(new RegExp(`the record of round ${round} at byte offset \\d+ is damaged`).test(text), `the dialog lacks the SDK's account of the damage: ${text}`);
      check(readFileSync(journal).equals(bytes), 'the journal changed before the user answered');
      await scenario.shot(page, '1-damaged-dialog');

      // 4. Recover.
      await dialog.locator('.monaco-button', { hasText: 'Recover' }).first().click();
      await lockState(page, dir, false);
      const aside = readdirSync(join(dir, 'ledger')).filter((f) => f.startsWith('journal.bin.damaged-'));
      check(aside.length === 1, `the damaged bytes were not moved aside: ${readdirSync(join(dir, 'ledger')).join(', ')}`);
      const again = await Tealworks.connect.devnet({ dataDir: dir });
      try {
        const recovered = (await again.node.status()).lastRound;
        results.roundAfterRecovery = String(recovered);
        check(recovered === round - 1n, `recovered to round ${recovered}, expected ${round - 1n}`);
        const paid = await again.send.payment({ sender: again.account.dispenser, receiver: again.account.random(), amount: algos(1) });
        check(paid.confirmedRound === round, `the recovered devnet did not take a new transaction in round ${round}`);
      } finally {
        await again.close();
      }
      log(`recovered to round ${round - 1n}; ${aside[0]} holds the damaged bytes; a new payment confirmed in round ${round}`);
      await scenario.shot(page, '2-recovered');
    },
  );
}

scenario.main(main);
