import { request } from 'undici';
import { Ed25519KeyPair } from '../../../../sdk/src/crypto/ed25519.js';
import { Address } from '../../../../sdk/src/encoding/address.js';
import { Ledger, type LedgerConfig } from '../../../../sdk/src/ledger/index.js';
import { startNodeService, type NodeServiceOptions, type RunningNodeService } from '../../../../sdk/src/services/node/index.js';
import { encodeSignedTransactions } from '../../../../sdk/src/txn/encode.js';
import { signTransaction } from '../../../../sdk/src/txn/sign.js';
import { assignGroupId } from '../../../../sdk/src/txn/group.js';
import { makePaymentTxn, type SuggestedParams } from '../../../../sdk/src/txn/builders.js';
import type { SignedTransaction, Transaction } from '../../../../sdk/src/txn/types.js';

export const TOKEN = 'n'.repeat(64);
export const ALGO = 1_000_000n;

export function key(n: number): Ed25519KeyPair {
  const seed = new Uint8Array(32);
  seed[0] = n;
  seed[31] = 0x77;
  return Ed25519KeyPair.fromSeed(seed);
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Uint8Array;
  text: string;
  /** Parsed JSON (numbers as JS numbers; test values stay small). */
  json: any;
}

/** An HTTP response read whole: status, headers, bytes, text and (when it parses) JSON. */
export async function readReply(res: Awaited<ReturnType<typeof request>>): Promise<Reply> {
  const bytes = new Uint8Array(await res.body.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, bytes, text, json };
}

export interface Node {
  ledger: Ledger;
  service: RunningNodeService;
  keys: Ed25519KeyPair[];
  addr(i: number): string;
  sp(extra?: Partial<SuggestedParams>): SuggestedParams;
  sign(txn: Transaction, k?: Ed25519KeyPair): SignedTransaction;
  pay(from: number, to: number | string, amount: bigint, extra?: Partial<SuggestedParams> & { note?: Uint8Array }): Transaction;
  call(method: string, path: string, options?: { body?: Uint8Array | string; token?: string | null; contentType?: string }): Promise<Reply>;
  /** Submits signed transactions as one raw group through HTTP. */
  submit(stxns: SignedTransaction[]): Promise<Reply>;
  close(): Promise<void>;
}

export async function startNode(options: Partial<NodeServiceOptions> & { accounts?: number; ledgerConfig?: LedgerConfig } = {}): Promise<Node> {
  const keys = Array.from({ length: options.accounts ?? 3 }, (_, i) => key(i + 1));
  let t = 1_700_000_000n;
  const ledger =
    options.ledger ??
    new Ledger({
      genesisAccounts: keys.map((k) => ({ address: k.publicKey, amount: 100n * ALGO })),
      genesisTimestamp: 1_700_000_000n,
      clock: () => (t += 5n),
      ...options.ledgerConfig,
    });
  const service = await startNodeService({ apiToken: TOKEN, ...options, ledger });
  const byAddr = new Map(keys.map((k) => [new Address(k.publicKey).toString(), k]));
  const node: Node = {
    ledger,
    service,
    keys,
    addr: (i) => new Address(keys[i]!.publicKey).toString(),
    sp: (extra = {}) => ({
      fee: 1000n,
      flatFee: true,
      firstValid: ledger.latestRound,
      lastValid: ledger.latestRound + 1000n,
      genesisId: ledger.genesisId,
      genesisHash: ledger.genesisHash,
      ...extra,
    }),
    sign: (txn, k) => signTransaction(txn, k ?? byAddr.get(txn.sender.toString())!),
    pay: (from, to, amount, extra = {}) =>
      makePaymentTxn({
        suggestedParams: node.sp(extra),
        sender: node.addr(from),
        receiver: typeof to === 'number' ? node.addr(to) : to,
        amount,
        ...(extra.note ? { note: extra.note } : {}),
      }),
    async call(method, path, o = {}) {
      const headers: Record<string, string> = {};
      if (o.token !== null) headers['X-Node-API-Token'] = o.token ?? TOKEN;
      if (o.contentType) headers['content-type'] = o.contentType;
      return readReply(await request(service.url + path, { method: method as 'GET', headers, ...(o.body !== undefined ? { body: o.body } : {}) }));
    },
    submit: (stxns) => node.call('POST', '/v1/transactions', { body: encodeSignedTransactions(stxns), contentType: 'application/x-binary' }),
    close: () => service.close(),
  };
  return node;
}

export function group(txns: Transaction[]): Transaction[] {
  return assignGroupId(txns);
}
