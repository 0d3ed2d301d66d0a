import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Checkpoints, checkpointPath, decodeValue, encodeValue, parseCheckpointData, stepHash } from '../../../sdk/src/workflow/checkpoint.js';
import { CheckpointError } from '../../../sdk/src/workflow/errors.js';

describe('workflow/checkpoint', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-ckpt-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names state files per workflow and network', () => {
    assert.equal(checkpointPath('/p/tealworks.yaml', 'devnet'), '/p/.tealworks/state/tealworks.devnet.json');
    assert.equal(checkpointPath('/p/a.workflow.yml', 'https://node.example.org:8080'), '/p/.tealworks/state/a.workflow.node.example.org_8080.json');
  });

  it('round-trips values losslessly, including uint64 extremes and $-keys', () => {
    const v = { big: (1n << 64n) - 1n, b: new Uint8Array([0, 255]), l: [1n, 'x', null, true], o: { $int: 'not an int' } };
    const back = decodeValue(JSON.parse(JSON.stringify(encodeValue(v))));
    assert.deepEqual(back, v);
  });

  it('hashes resolved definitions canonically', () => {
    assert.equal(stepHash('call', { a: 1n, b: 'x' }), stepHash('call', { b: 'x', a: 1n }));
    assert.notEqual(stepHash('call', { a: 1n }), stepHash('call', { a: 2n }));
    assert.notEqual(stepHash('call', { a: 1n }), stepHash('call', { a: '1' }));
    assert.notEqual(stepHash('call', { a: 1n }), stepHash('fund', { a: 1n }));
    assert.match(stepHash('x', null), /^[0-9a-f]{64}$/);
  });

  it('skips completed steps with the same definition and reruns changed ones', async () => {
    const path = join(dir, '.tealworks/state/w.devnet.json');
    const h1 = stepHash('deploy', { contract: 'c' });
    const c1 = await Checkpoints.open(path, 'w.yaml', 'devnet');
    assert.equal(c1.completed('deploy', h1), undefined);
    await c1.recordDone('deploy', h1, { 'app-id': 18446744073709551615n, 'app-address': 'ADDR' });
    const c2 = await Checkpoints.open(path, 'w.yaml', 'devnet');
    assert.deepEqual(c2.completed('deploy', h1), { 'app-id': 18446744073709551615n, 'app-address': 'ADDR' });
    assert.equal(c2.completed('deploy', stepHash('deploy', { contract: 'd' })), undefined);
    // No temporary files are left behind.
    assert.deepEqual(readdirSync(join(dir, '.tealworks/state')), ['w.devnet.json']);
    assert.match(readFileSync(path, 'utf8'), /"\$int": "18446744073709551615"/);
  });

  it('remembers failures so a rerun resumes there', async () => {
    const path = join(dir, 's.json');
    const c = await Checkpoints.open(path, 'w.yaml', 'devnet');
    await c.recordDone('a', 'h1', null);
    await c.recordFailure('b', 'h2', 'logic eval error: assert failed pc=12');
    const again = await Checkpoints.open(path, 'w.yaml', 'devnet');
    assert.equal(again.completed('a', 'h1'), null);
    assert.equal(again.completed('b', 'h2'), undefined);
    assert.deepEqual(again.failedSteps(), ['b']);
    assert.match(again.entry('b')!.error!, /pc=12/);
  });

  it('ignores the recorded state with fresh, another chain, or a damaged file', async () => {
    const path = join(dir, 's.json');
    const c = await Checkpoints.open(path, 'w.yaml', 'devnet', { chain: 'devnet-v1:AAA' });
    await c.recordDone('a', 'h', 1n);
    const fresh = await Checkpoints.open(path, 'w.yaml', 'devnet', { fresh: true });
    assert.equal(fresh.completed('a', 'h'), undefined);
    assert.match(fresh.discarded!, /fresh/);
    const other = await Checkpoints.open(path, 'w.yaml', 'devnet', { chain: 'devnet-v1:BBB' });
    assert.equal(other.completed('a', 'h'), undefined);
    assert.match(other.discarded!, /another chain/);
    const same = await Checkpoints.open(path, 'w.yaml', 'devnet', { chain: 'devnet-v1:AAA' });
    assert.equal(same.completed('a', 'h'), 1n);
    writeFileSync(path, '{ broken');
    const damaged = await Checkpoints.open(path, 'w.yaml', 'devnet');
    assert.match(damaged.discarded!, /unreadable/);
  });

  it('writes nothing in read-only (simulate-only) mode, and prunes removed steps', async () => {
    const path = join(dir, 's.json');
    const ro = await Checkpoints.open(path, 'w.yaml', 'devnet', { readOnly: true });
    await ro.recordDone('a', 'h', null);
    assert.deepEqual(readdirSync(dir), []);
    const c = await Checkpoints.open(path, 'w.yaml', 'devnet');
    await c.recordDone('a', 'h', null);
    await c.recordDone('b', 'h', null);
    await c.prune(['b']);
    assert.deepEqual(Object.keys(parseCheckpointData(readFileSync(path, 'utf8')).steps), ['b']);
  });

  it('rejects malformed state data with specific errors', () => {
    assert.throws(() => parseCheckpointData('{"version": 9, "steps": {}}'), /unsupported version 9/);
    assert.throws(() => parseCheckpointData('{"version": 1, "steps": {"a": {"status": "done"}}}'), /step a: needs "hash"/);
    assert.throws(() => decodeValue({ $int: '1.5' }), CheckpointError);
  });
});
