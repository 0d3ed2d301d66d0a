// What the editor e2e drivers share: where code-server and the artifacts live, a free port, waiting
// for code-server to answer, a clean profile with code-server and Chromium started, and the panel frame.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const e2eDir = resolve(process.env.E2E_DIR ?? join(root, '.e2e'));
export const csDir = join(e2eDir, 'code-server');
export const node = join(csDir, 'node/bin/node');
export const entry = join(csDir, 'node_modules/code-server/out/node/entry.js');
export const artifacts = join(e2eDir, 'artifacts');
export const vsix = join(root, 'dist/tealworks.vsix');
export const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

export async function waitForHttp(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server did not answer at ${url}`);
}

/** Settings every e2e profile starts with: no start page, tips, telemetry, updates or AI panels. */
const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'security.workspace.trust.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'workbench.tips.enabled': false,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'workbench.enableExperiments': false,
  'chat.disableAIFeatures': true,
  'git.openRepositoryInParentFolders': 'never',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

/** A code-server with the packaged extension in a clean profile, and headless Chromium to drive it. */
export interface Editor {
  /** The folder the workbench opens. */
  workspace: string;
  /** code-server's output so far (write it out when a check fails). */
  serverLog: string[];
  /** Waits for code-server, then opens the workbench on the workspace in a new page. */
  openWorkbench(viewport: { width: number; height: number }): Promise<Page>;
  /** Closes the browser and stops code-server. */
  close(): Promise<void>;
}

/**
 * Makes a fresh profile (`cs-data[-name]`, `cs-ext[-name]`, `workspace[-name]` under the e2e
 * directory), lets `prepare` fill the workspace, writes the quiet settings plus `settings`, installs
 * the `.vsix` and starts code-server and Chromium.
 */
export async function startEditor(options: { name?: string; settings?: Record<string, unknown>; prepare?: (workspace: string) => void }): Promise<Editor> {
  const suffix = options.name ? `-${options.name}` : '';
  const userData = join(e2eDir, `cs-data${suffix}`);
  const extensions = join(e2eDir, `cs-ext${suffix}`);
  const workspace = join(e2eDir, `workspace${suffix}`);
  for (const d of [userData, extensions, workspace]) rmSync(d, { recursive: true, force: true });
  for (const d of [userData, extensions, workspace, artifacts, join(userData, 'User')]) mkdirSync(d, { recursive: true });
  options.prepare?.(workspace);
  writeFileSync(join(userData, 'User/settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...options.settings }));
  const profile = ['--user-data-dir', userData, '--extensions-dir', extensions];
  // code-server writes a default config.yaml on start: into the profile, never the user's ~/.config.
  const env = { ...process.env, XDG_CONFIG_HOME: join(userData, 'config') };
  const install = spawnSync(node, [entry, ...profile, '--install-extension', vsix], { encoding: 'utf8', env });
  if (install.status !== 0) throw new Error(`extension install failed: ${install.stderr || install.stdout}`);
  const port = await freePort();
  const server: ChildProcess = spawn(
    node,
    [
      entry,
      ...profile,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      workspace,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env },
  );
  const serverLog: string[] = [];
  server.stdout?.on('data', (d: Buffer) => serverLog.push(d.toString()));
  server.stderr?.on('data', (d: Buffer) => serverLog.push(d.toString()));
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  } catch (e) {
    server.kill('SIGTERM');
    throw e;
  }
  return {
    workspace,
    serverLog,
    async openWorkbench(viewport) {
      await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000);
      const page = await browser.newPage({ viewport });
      // Generous: on a loaded machine the first page load can take minutes.
      await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`, { timeout: 180_000 });
      await page.waitForSelector('.monaco-workbench', { timeout: 180_000 });
      return page;
    },
    async close() {
      await browser.close();
      server.kill('SIGTERM');
    },
  };
}

/** The simulate panel's inner frame (webviews nest an iframe inside an iframe). */
export async function panelFrame(page: Page, ms = 60_000): Promise<Frame> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    for (const f of page.frames()) if (await f.$('#form').catch(() => null)) return f;
    await page.waitForTimeout(300);
  }
  throw new Error('the simulate panel did not appear');
}

/**
 * One driver's log lines, screenshots (`<artifacts>/<name>-<shot>.png`) and results file
 * (`<name>-results.json`), and the frame every driver runs its steps in.
 */
export class Scenario {
  /** What the driver measured and saw; written to `<name>-results.json` whether it passes or not. */
  readonly results: Record<string, unknown> = {};

  constructor(readonly name: string) {}

  log(message: string): void {
    console.log(`e2e-${this.name}: ${message}`);
  }

  async shot(page: Page, shot: string): Promise<string> {
    const path = join(artifacts, `${this.name}-${shot}.png`);
    await page.screenshot({ path });
    this.log(`screenshot ${path}`);
    return path;
  }

  /**
   * Runs the steps against the editor. When one fails: a `failure` screenshot of the page
   * `page()` returns and code-server's log next to the results; the editor is closed either way.
   */
  async run(editor: Editor, page: () => Page | undefined, steps: () => Promise<void>): Promise<void> {
    const writeResults = () => writeFileSync(join(artifacts, `${this.name}-results.json`), JSON.stringify(this.results, null, 2));
    try {
      await steps();
      writeResults();
      this.log('PASS');
    } catch (e) {
      const p = page();
      if (p) await this.shot(p, 'failure').catch(() => undefined);
      writeFileSync(join(artifacts, `${this.name}-code-server.log`), editor.serverLog.join(''));
      writeResults();
      throw e;
    } finally {
      await editor.close();
    }
  }

  /** Runs the driver's main function; a failure prints `FAIL: …` and exits with status 1. */
  main(fn: () => Promise<void>): void {
    fn().catch((e: unknown) => {
      console.error(`e2e-${this.name}: FAIL: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    });
  }
}

/**
 * Runs a command by its palette title. A command whose precondition is not settled yet (e.g.
 * isWorkspaceTrusted just after the window opens) is missing from the palette: look again later.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  const want = title.split(': ').pop()!.slice(0, 12);
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+Shift+P');
    await page.waitForSelector('.quick-input-widget input', { timeout: 20_000 });
    await page.keyboard.type(title);
    await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 20_000 });
    const found = await page
      .waitForFunction((t) => (document.querySelector('.quick-input-list .monaco-list-row')?.textContent ?? '').includes(t), want, { timeout: 10_000 })
      .then(
        () => true,
        () => false,
      );
    if (found) break;
    await page.keyboard.press('Escape');
    if (attempt === 4) throw new Error(`the command palette does not offer "${title}"`);
    await page.waitForTimeout(3000);
  }
  await page.keyboard.press('Enter');
}

/** Opens a workspace file through Quick Open, once the list's first row is that file. */
export async function openFile(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Control+P');
  await page.waitForSelector('.quick-input-widget input', { timeout: 30_000 });
  await page.keyboard.type(name);
  await page.waitForSelector('.quick-input-list .monaco-list-row', { timeout: 30_000 });
  // The list filters as it is typed: wait until the first row is the file asked for, folder
  // included (a recently opened `sample/approval.teal` can head the list for `vault/approval.teal`).
  const parts = name.split('/');
  const base = parts.pop()!;
  const folder = parts.pop() ?? '';
  await page.waitForFunction(
    ([b, d]) => {
      const row = document.querySelector('.quick-input-list .monaco-list-row')?.textContent ?? '';
      return row.includes(b!) && row.includes(d!);
    },
    [base, folder],
    { timeout: 30_000 },
  );
  await page.keyboard.press('Enter');
  await page.waitForTimeout(500);
}

/** Waits for the visible quick input (input box or pick) whose title or message matches. */
export async function quickInput(page: Page, title: RegExp, ms = 60_000): Promise<void> {
  await page.waitForFunction(
    (src) => {
      const w = document.querySelector('.quick-input-widget') as HTMLElement | null;
      if (!w || w.style.display === 'none') return false;
      return (
        new RegExp(src).test(w.querySelector('.quick-input-title')?.textContent ?? '') ||
        new RegExp(src).test(w.querySelector('.quick-input-message')?.textContent ?? '')
      );
    },
    title.source,
    { timeout: ms },
  );
}

/** Throws `message` unless `ok`: the drivers' checks. */
export function check(ok: unknown, message: string): void {
  if (!ok) throw new Error(message);
}

/**
 * Clicks the first CodeLens whose title matches `text` (after opening `file`, when given) and
 * returns its title. Lenses sit above line 1, so the editor is scrolled to the top first.
 */
export async function clickLens(page: Page, text: RegExp, options: { file?: string; ms?: number } = {}): Promise<string> {
  if (options.file) await openFile(page, options.file);
  await page.keyboard.press('Control+Home');
  await page.waitForTimeout(300);
  const lens = page.locator('.codelens-decoration a', { hasText: text }).first();
  await lens.waitFor({ timeout: options.ms ?? 90_000 });
  const title = (await lens.textContent()) ?? '';
  await lens.click();
  return title;
}

/** Shows the Tealworks views (the activity bar icon toggles: click only when they are hidden). */
export async function showTealworks(page: Page): Promise<void> {
  const pane = page.locator('.pane', { hasText: 'State Inspector' }).first();
  if (await pane.isVisible().catch(() => false)) return;
  await page.locator('.activitybar [aria-label^="Tealworks"]').first().click();
  await pane.waitFor({ timeout: 30_000 });
}

/**
 * Runs a workflow file through the extension's command (opened with `open`, Quick Open by
 * default); returns the Workflow Results rows.
 */
export async function runWorkflow(page: Page, file: string, open: (page: Page, file: string) => Promise<void> = openFile): Promise<string[]> {
  const squash = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
  await open(page, file);
  await runCommand(page, 'Tealworks: Run Workflow');
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: /Workflow (passed|failed)/ }).first();
  await toast.waitFor({ timeout: 240_000 });
  const text = squash(await toast.textContent());
  check(/Workflow passed/.test(text), `the workflow ${file} did not pass: ${text}`);
  await showTealworks(page);
  const rows = page.locator('.pane', { hasText: 'Workflow Results' }).locator('.monaco-list-row');
  await rows.first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(500);
  const texts = (await rows.allTextContents()).map(squash);
  await page
    .locator('.notifications-toasts .notification-toast .codicon-notifications-clear, .notifications-toasts .codicon-close')
    .first()
    .click()
    .catch(() => undefined);
  return texts;
}
