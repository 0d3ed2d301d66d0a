// Browser CORS end to end (issue 22 item 2): a real page in headless Chromium, served from another
// origin (its own port), calls the embedded devnet's three services with `fetch`, as a dApp or Lora
// does: the node's /v2/status and a /v2 simulate (msgpack body: a preflighted request), the query
// service and kmd. Under --localnet any origin may; without it only `--cors` origins may, and a
// page from an origin nobody allowed is refused by the browser.
//
//   npx tsx scripts/e2e/browser-cors.ts        (CHROMIUM=/path overrides /usr/bin/chromium)
//
// Needs Chromium (scripts/e2e/setup.sh installs it); CI runs it in its editor stage. Prints
// "N passed, M failed" and exits non-zero on any failure.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import algosdk from 'algosdk';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startDevnet, type RunningDevnet, type DevnetOptions } from '../../sdk/src/services/devnet/index.js';
import { TEST_SCRYPT } from '../../sdk/src/services/kmd/index.js';
import { chromiumPath } from './common.js';

interface Calls {
  status: { ok: boolean; round?: number; error?: string };
  simulate: { ok: boolean; groups?: number; error?: string };
  query: { ok: boolean; error?: string };
  kmd: { ok: boolean; error?: string };
}

const results: { name: string; ok: boolean; detail: string }[] = [];
function check(name: string, ok: boolean, detail: unknown): void {
  results.push({ name, ok, detail: JSON.stringify(detail) });
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok ? '' : `: ${JSON.stringify(detail)}`}\n`);
}

/** A page server on its own port: the page's origin differs from every devnet service's. */
async function pageServer(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>dApp</title><p>dApp page</p>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A signature-less payment simulate request (allow-empty-signatures), msgpack. */
async function simulateBody(d: RunningDevnet): Promise<string> {
  const u = new URL(d.node.url);
  const algod = new algosdk.Algodv2(d.node.token, `${u.protocol}//${u.hostname}`, Number(u.port));
  const sender = d.accounts[0]!.address;
  const pay = algosdk.makePaymentTxnWithSuggestedParamsFromObject({
    sender,
    receiver: sender,
    amount: 0,
    suggestedParams: await algod.getTransactionParams().do(),
  });
  const req = new algosdk.modelsv2.SimulateRequest({
    txnGroups: [new algosdk.modelsv2.SimulateRequestTransactionGroup({ txns: [new algosdk.SignedTransaction({ txn: pay })] })],
    allowEmptySignatures: true,
  });
  return Buffer.from(algosdk.encodeMsgpack(req)).toString('base64');
}

/**
 * The page's own script (plain JavaScript text: tsx would add helpers to a compiled function that
 * the page does not have): the four calls a dApp makes, each reporting ok or the browser's error.
 */
const PAGE_SCRIPT = `async (a) => {
  const err = (e) => String((e && e.message) || e);
  const out = { status: { ok: false }, simulate: { ok: false }, query: { ok: false }, kmd: { ok: false } };
  try {
    const r = await fetch(a.node + '/v2/status', { headers: { 'X-Algo-API-Token': a.nodeToken } });
    const j = await r.json();
    out.status = { ok: r.ok, round: j['last-round'] };
  } catch (e) { out.status = { ok: false, error: err(e) }; }
  try {
    const bytes = Uint8Array.from(atob(a.body), (c) => c.charCodeAt(0));
    const r = await fetch(a.node + '/v2/transactions/simulate', { method: 'POST', body: bytes, headers: { 'X-Algo-API-Token': a.nodeToken, 'Content-Type': 'application/msgpack' } });
    const j = await r.json();
    out.simulate = { ok: r.ok, groups: (j['txn-groups'] || []).length };
  } catch (e) { out.simulate = { ok: false, error: err(e) }; }
  try {
    const r = await fetch(a.query + '/v2/accounts?limit=1', { headers: a.queryToken ? { 'X-Indexer-API-Token': a.queryToken } : {} });
    out.query = { ok: r.ok, status: r.status };
  } catch (e) { out.query = { ok: false, error: err(e) }; }
  try {
    const r = await fetch(a.kmd + '/v1/wallets', { headers: { 'X-KMD-API-Token': a.kmdToken } });
    out.kmd = { ok: r.ok };
  } catch (e) { out.kmd = { ok: false, error: err(e) }; }
  return out;
}`;

/** Runs the four calls from inside the page (its origin), as a dApp's own code would. */
async function callFromPage(page: Page, d: RunningDevnet, body: string): Promise<Calls> {
  const args = {
    node: d.node.url,
    nodeToken: d.node.token,
    query: d.query.url,
    queryToken: d.genesisId === 'dockernet-v1' ? '' : d.query.token,
    kmd: d.keyManager.url,
    kmdToken: d.keyManager.token,
    body,
  };
  return (await page.evaluate(`(${PAGE_SCRIPT})(${JSON.stringify(args)})`)) as Calls;
}

async function scenario(browser: Browser, origin: string, name: string, options: DevnetOptions, expectAllowed: boolean): Promise<void> {
  const d = await startDevnet({ inMemory: true, ports: { node: 0, query: 0, keyManager: 0 }, kdf: TEST_SCRYPT, accounts: 1, ...options });
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/`);
    const calls = await callFromPage(page, d, await simulateBody(d));
    if (expectAllowed) {
      check(`${name}: GET /v2/status from ${origin}`, calls.status.ok && typeof calls.status.round === 'number', calls.status);
      check(`${name}: POST /v2/transactions/simulate (msgpack, preflighted)`, calls.simulate.ok && calls.simulate.groups === 1, calls.simulate);
      check(`${name}: query service`, calls.query.ok, calls.query);
      check(`${name}: kmd`, calls.kmd.ok, calls.kmd);
    } else {
      // The browser refuses the answer: fetch rejects (no CORS headers for this origin).
      check(`${name}: the node refuses a page from an origin nobody allowed`, !calls.status.ok && /fetch/i.test(calls.status.error ?? ''), calls.status);
      check(`${name}: simulate refused too`, !calls.simulate.ok && /fetch/i.test(calls.simulate.error ?? ''), calls.simulate);
    }
  } finally {
    await page.close();
    await d.stop();
  }
}

async function main(): Promise<number> {
  const { server, origin } = await pageServer();
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    await scenario(browser, origin, '--localnet (any origin)', { localnet: true }, true);
    await scenario(browser, origin, '--cors ORIGIN', { corsOrigins: [origin] }, true);
    await scenario(browser, origin, 'no --cors', {}, false);
    await scenario(browser, origin, '--cors another origin', { corsOrigins: ['http://localhost:5173'] }, false);
  } finally {
    await browser?.close();
    await new Promise((r) => server.close(r));
  }
  const failed = results.filter((r) => !r.ok).length;
  process.stdout.write(`browser cors: ${results.length - failed} passed, ${failed} failed\n`);
  return failed === 0 && results.length > 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`browser cors: ${(e as Error).stack ?? String(e)}\n0 passed, 1 failed\n`);
    process.exit(1);
  },
);
