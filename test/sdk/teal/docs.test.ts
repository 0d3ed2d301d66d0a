import assert from 'node:assert/strict';
import { LANGSPEC_MAX_VERSION, OPCODES, opByName } from '../../../sdk/src/teal/spec/opcodes.js';
import {
  DIRECTIVE_DOCS,
  FIELD_DOCS,
  NAMED_CONSTANTS,
  OPCODE_DOCS,
  PSEUDO_OPS,
  costWords,
  renderConstantMarkdown,
  renderFieldMarkdown,
  renderOpcodeMarkdown,
} from '../../../sdk/src/teal/docs/index.js';

function missingReport(what: string, missing: string[]): string {
  return `${missing.length} ${what} without docs:\n  ${missing.join('\n  ')}`;
}

describe('teal: opcode, field and constant docs', () => {
  describe('coverage', () => {
    it('documents every opcode of the table and the pseudo-ops', () => {
      const missing = OPCODES.filter((op) => !OPCODE_DOCS[op.name]?.summary.trim()).map((op) => op.name);
      for (const name of ['int', 'byte', 'addr', 'method', 'replace']) if (!OPCODE_DOCS[name]?.summary.trim()) missing.push(name);
      assert.deepEqual(missing, [], missingReport('opcodes', missing));
    });

    it('documents every immediate of every op variant', () => {
      const missing: string[] = [];
      for (const op of OPCODES) {
        for (const variant of op.variants) {
          for (const imm of variant.immediates) {
            const key = `${op.name} ${imm.name}`;
            if (!OPCODE_DOCS[op.name]?.immediates?.[imm.name]?.trim() && !missing.includes(key)) missing.push(key);
          }
        }
      }
      assert.deepEqual(missing, [], missingReport('immediates', missing));
    });

    it("documents every field of every op's field list", () => {
      const missing: string[] = [];
      let checked = 0;
      for (const op of OPCODES) {
        if (!op.fields) continue;
        assert.ok(op.fieldGroup, `${op.name} has fields but no field group`);
        for (const field of op.fields) {
          checked++;
          const key = `${op.fieldGroup} / ${field.name} (${op.name})`;
          if (!FIELD_DOCS[op.fieldGroup]?.[field.name]?.trim() && !missing.includes(key)) missing.push(key);
        }
      }
      assert.deepEqual(missing, [], missingReport('fields', missing));
      assert.ok(checked > 300, `only ${checked} field entries found in the table`);
    });

    it('has no docs for names the table does not know (catches typos and removed entries)', () => {
      const opNames = new Set(OPCODES.map((op) => op.name));
      const strayOps = Object.keys(OPCODE_DOCS).filter((n) => !opNames.has(n) && !PSEUDO_OPS.includes(n));
      assert.deepEqual(strayOps, []);

      const tableFields = new Map<string, Set<string>>();
      for (const op of OPCODES) {
        if (!op.fieldGroup || !op.fields) continue;
        const set = tableFields.get(op.fieldGroup) ?? new Set<string>();
        for (const f of op.fields) set.add(f.name);
        tableFields.set(op.fieldGroup, set);
      }
      const strayFields: string[] = [];
      for (const [group, fields] of Object.entries(FIELD_DOCS)) {
        const known = tableFields.get(group);
        if (!known) strayFields.push(`${group} (whole group)`);
        else for (const name of Object.keys(fields)) if (!known.has(name)) strayFields.push(`${group} / ${name}`);
      }
      assert.deepEqual(strayFields, []);

      const strayImmediates: string[] = [];
      for (const [name, doc] of Object.entries(OPCODE_DOCS)) {
        const spec = OPCODES.find((op) => op.name === name);
        const immNames = new Set(spec?.variants.flatMap((v) => v.immediates.map((i) => i.name)) ?? []);
        for (const imm of Object.keys(doc.immediates ?? {})) if (!immNames.has(imm)) strayImmediates.push(`${name} ${imm}`);
      }
      assert.deepEqual(strayImmediates, []);
    });
  });

  describe('shape of the prose', () => {
    it('keeps summaries to one line of at most 100 characters', () => {
      const bad = Object.entries(OPCODE_DOCS)
        .filter(([, d]) => /[\r\n]/.test(d.summary) || d.summary.length > 100)
        .map(([n, d]) => `${n} (${d.summary.length}): ${d.summary}`);
      assert.deepEqual(bad, []);
    });

    it('leaves cost figures to the table', () => {
      const offenders: string[] = [];
      for (const [name, doc] of Object.entries(OPCODE_DOCS)) {
        const text = `${doc.summary} ${doc.details ?? ''}`;
        if (/\bcosts?\b(\s+\w+){0,3}\s+\d/i.test(text)) offenders.push(name);
      }
      assert.deepEqual(offenders, []);
    });

    it('writes field docs as complete sentences', () => {
      const bad: string[] = [];
      for (const [group, fields] of Object.entries(FIELD_DOCS)) {
        for (const [name, text] of Object.entries(fields)) {
          if (!/[.)]$/.test(text.trim()) || /[\r\n]/.test(text)) bad.push(`${group} / ${name}: ${text}`);
        }
      }
      assert.deepEqual(bad, []);
    });
  });

  describe('renderOpcodeMarkdown', () => {
    it('shows the version-specific cost of sha256', () => {
      const v1 = renderOpcodeMarkdown('sha256', 1)!;
      const v2 = renderOpcodeMarkdown('sha256', 2)!;
      assert.match(v1, /sha256 {2}A: \[\]byte → X: \[32\]byte/);
      assert.match(v1, /\*\*Cost:\*\* 7 /);
      assert.match(v2, /\*\*Cost:\*\* 35 /);
      assert.doesNotMatch(v2, /\*\*Cost:\*\* 7 /);
      assert.match(v1, /\*\*Introduced:\*\* v1/);
      assert.match(v1, /v2: cost 7 → 35/);
    });

    it('writes the signature with named stack arguments and results', () => {
      const md = renderOpcodeMarkdown('app_global_get_ex', 8)!;
      assert.ok(md.includes('app_global_get_ex  A: uint64, B: stateKey → X: any, Y: bool'), md);
      assert.match(md, /\*\*Mode:\*\* application only/);
      assert.ok(renderOpcodeMarkdown('divmodw', 8)!.includes('→ W: uint64, X: uint64, Y: uint64, Z: uint64'));
      assert.ok(renderOpcodeMarkdown('gtxna', 8)!.includes('gtxna T F I  → X: any'));
    });

    it('lists per-group linear costs of ec_pairing_check', () => {
      const md = renderOpcodeMarkdown('ec_pairing_check', 10)!;
      assert.ok(md.includes('`BN254g1`: 8000 + 7400 per 64 bytes of B'), md);
      assert.ok(md.includes('`BN254g2`: 8000 + 7400 per 128 bytes of B'));
      assert.ok(md.includes('`BLS12_381g1`: 13000 + 10000 per 96 bytes of B'));
      assert.ok(md.includes('`BLS12_381g2`: 13000 + 10000 per 192 bytes of B'));
      assert.match(md, /\*\*Introduced:\*\* v10/);
    });

    it('describes length-dependent costs in words', () => {
      assert.match(renderOpcodeMarkdown('base64_decode', 8)!, /\*\*Cost:\*\* 1 \+ 1 per 16 bytes of A/);
      assert.match(renderOpcodeMarkdown('json_ref', 8)!, /\*\*Cost:\*\* 25 \+ 2 per 7 bytes of A/);
    });

    it('reflects mode and encoding changes between versions', () => {
      assert.match(renderOpcodeMarkdown('ed25519verify', 4)!, /\*\*Mode:\*\* logicsig only/);
      assert.match(renderOpcodeMarkdown('ed25519verify', 5)!, /\*\*Mode:\*\* both/);
      assert.match(renderOpcodeMarkdown('bnz', 12)!, /`TARGET` — 2-byte signed big-endian offset/);
      assert.match(renderOpcodeMarkdown('bnz', 13)!, /`TARGET` — zigzag varint offset/);
      assert.match(renderOpcodeMarkdown('bnz', 12)!, /\*\*Opcode:\*\* `0x40`, 3 bytes/);
      assert.match(renderOpcodeMarkdown('app_box_get', 13)!, /\*\*Opcode:\*\* `0xd4 0x06`, 2 bytes/);
    });

    it('lists the fields available at the requested version', () => {
      const v1 = renderOpcodeMarkdown('txn', 1)!;
      assert.ok(v1.includes('`Sender`'));
      assert.ok(!v1.includes('`ApplicationID`'), 'ApplicationID arrived in v2');
      assert.ok(renderOpcodeMarkdown('txn', 2)!.includes('`ApplicationID`'));
    });

    it('marks ops that do not exist yet at the requested version', () => {
      assert.match(renderOpcodeMarkdown('box_get', 7)!, /Not available at v7: introduced in v8/);
      assert.doesNotMatch(renderOpcodeMarkdown('box_get', 8)!, /Not available/);
      assert.equal(renderOpcodeMarkdown('no_such_op', 8), undefined);
    });

    it('renders pseudo-ops without an opcode table entry', () => {
      const md = renderOpcodeMarkdown('method', 8)!;
      assert.match(md, /Pseudo-op/);
      assert.ok(md.includes(OPCODE_DOCS.method!.summary));
    });

    it('agrees with the table for every op at every version it exists', () => {
      let rendered = 0;
      for (const op of OPCODES) {
        for (let v = op.introduced; v <= LANGSPEC_MAX_VERSION; v++) {
          const live = opByName(op.name, v)!;
          const md = renderOpcodeMarkdown(op.name, v)!;
          rendered++;
          assert.ok(md.includes(OPCODE_DOCS[op.name]!.summary), `${op.name} v${v}: summary missing`);
          assert.ok(md.includes(`**Introduced:** v${op.introduced}`), `${op.name} v${v}: version missing`);
          for (const line of costWords(live.cost)) assert.ok(md.includes(line), `${op.name} v${v}: cost ${line} missing`);
          for (const imm of live.immediates) assert.ok(md.includes(`\`${imm.name}\``), `${op.name} v${v}: immediate ${imm.name} missing`);
        }
      }
      assert.ok(rendered > 1500);
    });
  });

  describe('renderFieldMarkdown', () => {
    it('renders every documented field with its table facts', () => {
      for (const op of OPCODES) {
        for (const f of op.fields ?? []) {
          const md = renderFieldMarkdown(op.fieldGroup!, f.name, LANGSPEC_MAX_VERSION, op.name)!;
          assert.ok(md.includes(FIELD_DOCS[op.fieldGroup!]![f.name]!), `${op.name} ${f.name}`);
          assert.ok(md.includes(`Immediate value: ${f.value}`), `${op.name} ${f.name} value`);
          assert.ok(md.includes(`Introduced: v${f.version}`), `${op.name} ${f.name} version`);
        }
      }
    });

    it('uses the earliest op by default and honours an explicit op', () => {
      const sender = renderFieldMarkdown('txn Fields', 'Sender', 1)!;
      assert.match(sender, /Type: `address`/);
      assert.match(sender, /Introduced: v1/);
      const note = renderFieldMarkdown('itxn_field Fields', 'Note', 5)!;
      assert.match(note, /Accepts: `\[\]byte`/);
      assert.match(note, /Not available at v5: introduced in v6/);
      assert.match(renderFieldMarkdown('global Fields', 'Round', 8)!, /Mode: application only/);
      assert.match(renderFieldMarkdown('txn Fields', 'Sender', 8, 'gitxn')!, /Introduced: v6/);
      assert.equal(renderFieldMarkdown('txn Fields', 'NoSuchField', 8), undefined);
    });
  });

  describe('named constants and directives', () => {
    it('carries the protocol values for transaction types and OnCompletion', () => {
      const expected: Record<string, number> = {
        unknown: 0,
        pay: 1,
        keyreg: 2,
        acfg: 3,
        axfer: 4,
        afrz: 5,
        appl: 6,
        stpf: 7,
        hb: 8,
        Payment: 1,
        KeyRegistration: 2,
        AssetConfig: 3,
        AssetTransfer: 4,
        AssetFreeze: 5,
        ApplicationCall: 6,
        NoOp: 0,
        OptIn: 1,
        CloseOut: 2,
        ClearState: 3,
        UpdateApplication: 4,
        DeleteApplication: 5,
      };
      const actual = Object.fromEntries(Object.entries(NAMED_CONSTANTS).map(([n, c]) => [n, c.value]));
      assert.deepEqual(actual, expected);
      for (const [name, c] of Object.entries(NAMED_CONSTANTS)) {
        assert.ok(c.doc.trim().length > 10, name);
        assert.ok(renderConstantMarkdown(name)!.includes(`= ${c.value}`), name);
      }
    });

    it('documents the pragmas and #define', () => {
      for (const key of ['#pragma version', '#pragma typetrack', '#pragma autosalt', '#define']) assert.ok(DIRECTIVE_DOCS[key], key);
      assert.match(renderConstantMarkdown('#pragma version')!, /#pragma version N/);
      assert.match(renderConstantMarkdown('typetrack')!, /#pragma typetrack true\|false/);
      assert.match(renderConstantMarkdown('#define')!, /#define NAME/);
      assert.equal(renderConstantMarkdown('toString'), undefined);
      assert.equal(renderConstantMarkdown('nonsense'), undefined);
    });
  });
});
