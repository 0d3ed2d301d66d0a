import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { generateAppClient } from '../../../sdk/src/client/codegen.js';
import { loadAppSpec } from '../../../sdk/src/abi/arc56.js';

// Issue 27: every generated client (the ARC-56/ARC-32 specs under test/ and the Puya examples' specs
// in ../shared/data) compiles under strict TypeScript, and the mistakes a typed client exists to
// catch are compile errors: each `@ts-expect-error` below must meet an error (else TS2578).

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const puya = resolve(repoRoot, '../shared/data/fixtures/puya-examples');

function specFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...specFiles(p));
    else if (/\.arc(56|32)\.json$/.test(e)) out.push(p);
  }
  return out;
}

/** A spec shaped like the report: ABI create-only and update methods, template variables, a bytes-keyed box map. */
const LIFECYCLE_SPEC = {
  arcs: [56],
  name: 'Lifecycle',
  structs: {},
  methods: [
    { name: 'createAbi', args: [{ type: 'string', name: 'input' }], returns: { type: 'string' }, actions: { create: ['NoOp'], call: [] } },
    { name: 'updateAbi', args: [{ type: 'string', name: 'input' }], returns: { type: 'string' }, actions: { create: [], call: ['UpdateApplication'] } },
    { name: 'deleteAbi', args: [{ type: 'string', name: 'input' }], returns: { type: 'string' }, actions: { create: [], call: ['DeleteApplication'] } },
    {
      name: 'hash',
      args: [
        { type: 'byte[4]', name: 'tag' },
        { type: 'uint64[3]', name: 'trio' },
        { type: 'pay', name: 'payment' },
      ],
      returns: { type: 'void' },
      actions: { create: [], call: ['NoOp'] },
    },
  ],
  state: {
    schema: { global: { ints: 0, bytes: 0 }, local: { ints: 0, bytes: 0 } },
    keys: { global: {}, local: {}, box: {} },
    maps: { global: {}, local: {}, box: { blobs: { keyType: 'AVMBytes', valueType: 'uint64', prefix: 'Yg==' } } },
  },
  bareActions: { create: [], call: [] },
  templateVariables: { TMPL_UPDATABLE: { type: 'AVMUint64' }, TMPL_DELETABLE: { type: 'AVMUint64' }, TMPL_FEE: { type: 'AVMUint64' } },
};

const CASES = `
import { Tealworks, fixedBytes, type Transaction } from '@tealworks/sdk';
import { LifecycleClient } from './Lifecycle.js';
import { MerkleTreeClient } from './MerkleTree.js';
import { AuctionClient } from './Auction.js';
import { BoxContractClient } from './BoxContract.js';
import { CounterClient } from './counter.js';
import { TicTacToeContractClient } from './TicTacToeContract.js';

export async function cases(tw: Tealworks, app: LifecycleClient, merkle: MerkleTreeClient, auction: AuctionClient, box: BoxContractClient, counter: CounterClient, ttt: TicTacToeContractClient, axfer: Transaction & { type: 'axfer' }) {
  const creator = tw.account.dispenser;
  // Create-only and update methods go through deploy, typed; they are no instance methods.
  await LifecycleClient.deploy(tw, { creator, template: { FEE: 1n }, create: { method: 'createAbi', args: { input: 'hi' } }, update: { method: 'updateAbi', args: { input: 'v2' } }, updatable: true });
  // @ts-expect-error — createAbi is create-only
  await app.createAbi({ input: 'hi' });
  // @ts-expect-error — updateAbi is an update: deploy({ update }) sends it with the new programs
  await app.updateAbi({ input: 'hi' });
  // @ts-expect-error — no bare create: the create method is required
  await LifecycleClient.deploy(tw, { creator, template: { FEE: 1n } });
  // @ts-expect-error — a create method's arguments are typed
  await LifecycleClient.deploy(tw, { creator, template: { FEE: 1n }, create: { method: 'createAbi', args: { input: 5 } } });
  // @ts-expect-error — updateAbi cannot create
  await LifecycleClient.deploy(tw, { creator, template: { FEE: 1n }, create: { method: 'updateAbi', args: { input: 'x' } } });
  await app.deleteAbi({ input: 'bye' });
  // Template: TMPL_UPDATABLE / TMPL_DELETABLE come from updatable / deletable.
  // @ts-expect-error — UPDATABLE is not a template value of its own
  await LifecycleClient.deploy(tw, { creator, template: { FEE: 1n, UPDATABLE: 1n }, create: { method: 'createAbi', args: { input: 'hi' } } });
  // @ts-expect-error — FEE is required
  await LifecycleClient.deploy(tw, { creator, template: {}, create: { method: 'createAbi', args: { input: 'hi' } } });
  // @ts-expect-error — the counter has no template variables
  await CounterClient.deploy(tw, { creator, template: { UPDATABLE: 1 } });
  // Static arrays: byte[4] takes exactly four bytes, uint64[3] three numbers.
  const pay = await tw.build.payment({ sender: creator, receiver: app.appAddress, amount: 1000n });
  await app.hash({ tag: fixedBytes(4, 'abcd'), trio: [1n, 2n, 3n], payment: pay });
  // @ts-expect-error — any Uint8Array is not a byte[4]
  await app.hash({ tag: new Uint8Array(7), trio: [1n, 2n, 3n], payment: pay });
  // @ts-expect-error — fixedBytes(5, …) is not a byte[4]
  await app.hash({ tag: fixedBytes(5, 'abcde'), trio: [1n, 2n, 3n], payment: pay });
  // @ts-expect-error — uint64[3] takes three
  await app.hash({ tag: fixedBytes(4, 'abcd'), trio: [1n, 2n], payment: pay });
  // Transaction arguments are typed by kind.
  // @ts-expect-error — an asset transfer is not a payment
  await app.hash({ tag: fixedBytes(4, 'abcd'), trio: [1n, 2n, 3n], payment: axfer });
  await auction.bid({ pay });
  // @ts-expect-error — the payment argument is required
  await auction.bid({});
  await auction.startAuction({ starting_price: 1, length: 100, axfer });
  // @ts-expect-error — bid takes a payment, not an asset transfer
  await auction.bid({ pay: axfer });
  // Merkle: byte[32] everywhere, create-only create.
  await merkle.verify({ proof: [fixedBytes(32, new Uint8Array(32))], leaf: fixedBytes(32, new Uint8Array(32)) });
  // @ts-expect-error — create is create-only
  await merkle.create({ root: fixedBytes(32, new Uint8Array(32)) });
  await MerkleTreeClient.deploy(tw, { creator, create: { method: 'create', args: { root: fixedBytes(32, new Uint8Array(32)) } } });
  // A method that both creates and is called stays an instance method, and may create.
  await ttt.newGame({ move: [1n, 2n] });
  await TicTacToeContractClient.deploy(tw, { creator, create: { method: 'newGame', args: { move: [0n, 0n] } } });
  // Box-map readers take the key type of the spec.
  await box.state.box.boxMap(5n);
  // @ts-expect-error — box_map is keyed by uint64
  await box.state.box.boxMap('five');
  await app.state.box.blobs(new Uint8Array([1]));
  // Typed groups.
  await tw.newGroup().payment({ sender: creator, receiver: creator, amount: 0n }).method(counter.params.increment({ amount: 3 })).method(auction.params.bid({ pay })).send();
  // @ts-expect-error — a wrong argument in a group member
  tw.newGroup().method(counter.params.increment({ amount: 'three' }));
  // @ts-expect-error — a method the app does not have
  tw.newGroup().method(counter.params.decrement({ amount: 3 }));
  const txns: Transaction[] = await counter.transactions.increment({ amount: 1 });
  // Lookup by creator and name.
  const again: CounterClient = await CounterClient.fromCreatorAndName(tw, creator);
  return [txns, again];
}
`;

describe('client: generated typed clients compile under strict TypeScript', function () {
  this.timeout(600_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-codegen-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('every spec in test/ and the Puya examples; the @ts-expect-error cases meet their errors', () => {
    const specs = [...specFiles(join(repoRoot, 'test')), ...specFiles(puya), join(repoRoot, 'examples/counter/abi/counter.arc56.json')];
    assert.ok(specFiles(puya).length >= 9, `the Puya examples' specs are in ${puya}`);
    const files: string[] = [];
    const names = new Set<string>();
    for (const path of specs) {
      let spec;
      try {
        spec = loadAppSpec(readFileSync(path, 'utf8'));
      } catch {
        continue; // deliberately broken fixtures (the loader's own tests)
      }
      let name = path.endsWith('counter.arc56.json') ? 'counter' : spec.name.replace(/[^A-Za-z0-9]/g, '');
      while (names.has(name)) name += '_';
      names.add(name);
      const file = join(dir, `${name}.ts`);
      writeFileSync(file, generateAppClient(spec, { sourceName: path }));
      files.push(file);
    }
    writeFileSync(join(dir, 'Lifecycle.ts'), generateAppClient(loadAppSpec(LIFECYCLE_SPEC)));
    files.push(join(dir, 'Lifecycle.ts'));
    writeFileSync(join(dir, 'cases.ts'), CASES);
    files.push(join(dir, 'cases.ts'));
    assert.ok(files.length > 14, `${files.length} clients`);
    const program = ts.createProgram(files, {
      strict: true,
      noUnusedLocals: true,
      noImplicitOverride: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: ['node'],
      typeRoots: [join(repoRoot, 'node_modules/@types')],
      skipLibCheck: true,
      noEmit: true,
      baseUrl: repoRoot,
      paths: { '@tealworks/sdk': [join(repoRoot, 'sdk/src/index.ts')] },
    });
    const diags = ts.getPreEmitDiagnostics(program).filter((d) => d.file && d.file.fileName.startsWith(dir.replace(/\\/g, '/')));
    const text = diags.map(
      (d) =>
        `${d.file!.fileName.slice(dir.length + 1)}:${d.file!.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
    assert.deepEqual(text, []);
    const expected = (CASES.match(/@ts-expect-error/g) ?? []).length;
    assert.ok(expected >= 18, `${expected} expected errors`);
  });
});
