import { toBase64 } from '../../encoding/base64.js';
import { jsonReply } from '../http/reply.js';
import { Router, type HttpMethod } from '../http/router.js';
import { serve, type RunningService, type ServeOptions, type ServiceDefinition } from '../http/server.js';
import { runningService } from '../http/running.js';
import { KEY_MANAGER_TOKEN_HEADER } from '../../adapters/kmd/client.js';
import type { ErrorFormat, RequestContext } from '../http/types.js';
import { HttpError } from '../http/errors.js';
import { MSG } from './errors.js';
import { KeyManager, type HandleInfo, type KeyManagerOptions, type WalletInfo } from './key-manager.js';
import { omitEmpty, parseRequest, wireBytes, type ByteForm, type Parsed, type Schema } from './wire.js';

/** API versions the key-manager service reports. */
export const KEY_MANAGER_API_VERSIONS: readonly string[] = ['v1'];

interface Endpoint {
  method: HttpMethod;
  path: string;
  summary: string;
  schema: Schema;
  responseFields: readonly string[];
  public?: boolean;
  run(p: Parsed, km: KeyManager, form: ByteForm, call: { signal: AbortSignal }): Promise<Record<string, unknown>> | Record<string, unknown>;
}

const s = (p: Parsed, key: string): string => p.strings[key] ?? '';

function walletJson(w: WalletInfo): Record<string, unknown> {
  return { driver_name: w.driverName, driver_version: w.driverVersion, id: w.id, mnemonic_ux: w.mnemonicUx, name: w.name, supported_txs: w.supportedTxs };
}

function handleJson(h: HandleInfo): Record<string, unknown> {
  return { expires_seconds: h.expiresSeconds, wallet: walletJson(h.wallet) };
}

const TOKEN = { wallet_handle_token: 'string' } as const;
const TOKEN_PW = { wallet_handle_token: 'string', wallet_password: 'string' } as const;

/** Every operation of key-manager-service.md. */
const ENDPOINTS: readonly Endpoint[] = [
  {
    method: 'GET',
    path: '/versions',
    summary: 'API versions this service speaks',
    schema: {},
    responseFields: ['versions'],
    public: true,
    run: () => ({ versions: [...KEY_MANAGER_API_VERSIONS] }),
  },
  {
    method: 'GET',
    path: '/v1/wallets',
    summary: 'List wallets',
    schema: {},
    responseFields: ['wallets'],
    run: (_p, km) => ({ wallets: km.listWallets().map(walletJson) }),
  },
  {
    method: 'POST',
    path: '/v1/wallet',
    summary: 'Create a wallet',
    schema: { wallet_name: 'string', wallet_password: 'string', wallet_driver_name: 'string', master_derivation_key: 'bytes' },
    responseFields: ['wallet'],
    run: async (p, km) => {
      const request: Parameters<KeyManager['createWallet']>[0] = {
        name: s(p, 'wallet_name'),
        password: s(p, 'wallet_password'),
        driverName: s(p, 'wallet_driver_name'),
      };
      if (p.bytes.master_derivation_key) request.masterDerivationKey = p.bytes.master_derivation_key;
      return { wallet: walletJson(await km.createWallet(request)) };
    },
  },
  {
    method: 'POST',
    path: '/v1/wallet/init',
    summary: 'Unlock a wallet and get a wallet handle token',
    schema: { wallet_id: 'string', wallet_password: 'string' },
    responseFields: ['wallet_handle_token'],
    run: async (p, km, _form, call) => ({ wallet_handle_token: await km.initHandle(s(p, 'wallet_id'), s(p, 'wallet_password'), call) }),
  },
  {
    method: 'POST',
    path: '/v1/wallet/release',
    summary: 'Invalidate a wallet handle token',
    schema: TOKEN,
    responseFields: [],
    run: async (p, km) => {
      await km.releaseHandle(s(p, 'wallet_handle_token'));
      return {};
    },
  },
  {
    method: 'POST',
    path: '/v1/wallet/renew',
    summary: 'Restore a handle token to its full lifetime',
    schema: TOKEN,
    responseFields: ['wallet_handle'],
    run: (p, km) => ({ wallet_handle: handleJson(km.renewHandle(s(p, 'wallet_handle_token'))) }),
  },
  {
    method: 'POST',
    path: '/v1/wallet/info',
    summary: 'Wallet of a handle and seconds until the handle expires',
    schema: TOKEN,
    responseFields: ['wallet_handle'],
    run: (p, km) => ({ wallet_handle: handleJson(km.handleInfo(s(p, 'wallet_handle_token'))) }),
  },
  {
    method: 'POST',
    path: '/v1/wallet/rename',
    summary: 'Rename a wallet',
    schema: { wallet_id: 'string', wallet_name: 'string', wallet_password: 'string' },
    responseFields: ['wallet'],
    run: async (p, km, _form, call) => ({ wallet: walletJson(await km.renameWallet(s(p, 'wallet_id'), s(p, 'wallet_password'), s(p, 'wallet_name'), call)) }),
  },
  {
    method: 'POST',
    path: '/v1/master-key/export',
    summary: 'Export the master derivation key',
    schema: TOKEN_PW,
    responseFields: ['master_derivation_key'],
    run: async (p, km, form, call) => ({
      master_derivation_key: wireBytes(await km.exportMasterKey(s(p, 'wallet_handle_token'), s(p, 'wallet_password'), call), form),
    }),
  },
  {
    method: 'POST',
    path: '/v1/key',
    summary: 'Generate the next deterministic key',
    schema: { wallet_handle_token: 'string', display_mnemonic: 'bool' },
    responseFields: ['address'],
    run: async (p, km) => ({ address: await km.generateKey(s(p, 'wallet_handle_token'), p.bools.display_mnemonic ?? false) }),
  },
  {
    method: 'DELETE',
    path: '/v1/key',
    summary: 'Delete a key',
    schema: { address: 'string', ...TOKEN_PW },
    responseFields: [],
    run: async (p, km, _form, call) => {
      await km.deleteKey(s(p, 'wallet_handle_token'), s(p, 'wallet_password'), s(p, 'address'), call);
      return {};
    },
  },
  {
    method: 'POST',
    path: '/v1/key/export',
    summary: 'Export a private key',
    schema: { address: 'string', ...TOKEN_PW },
    responseFields: ['private_key'],
    run: async (p, km, form, call) => ({
      private_key: wireBytes(await km.exportKey(s(p, 'wallet_handle_token'), s(p, 'wallet_password'), s(p, 'address'), call), form),
    }),
  },
  {
    method: 'POST',
    path: '/v1/key/import',
    summary: 'Import a private key',
    schema: { private_key: 'bytes', ...TOKEN },
    responseFields: ['address'],
    run: async (p, km) => ({ address: await km.importKey(s(p, 'wallet_handle_token'), p.bytes.private_key ?? new Uint8Array(0)) }),
  },
  {
    method: 'POST',
    path: '/v1/key/list',
    summary: 'List the addresses of the keys in a wallet',
    schema: TOKEN,
    responseFields: ['addresses'],
    run: (p, km) => ({ addresses: km.listKeys(s(p, 'wallet_handle_token')) }),
  },
  {
    method: 'DELETE',
    path: '/v1/multisig',
    summary: 'Delete a stored multisig preimage',
    schema: { address: 'string', ...TOKEN_PW },
    responseFields: [],
    run: async (p, km, _form, call) => {
      await km.deleteMultisig(s(p, 'wallet_handle_token'), s(p, 'wallet_password'), s(p, 'address'), call);
      return {};
    },
  },
  {
    method: 'POST',
    path: '/v1/multisig/export',
    summary: 'Export a multisig preimage',
    schema: { address: 'string', ...TOKEN },
    responseFields: ['multisig_version', 'threshold', 'pks'],
    run: (p, km, form) => {
      const m = km.exportMultisig(s(p, 'wallet_handle_token'), s(p, 'address'));
      return { multisig_version: m.version, pks: m.publicKeys.map((k) => wireBytes(k, form)), threshold: m.threshold };
    },
  },
  {
    method: 'POST',
    path: '/v1/multisig/import',
    summary: 'Store a multisig preimage',
    schema: { multisig_version: 'uint8', threshold: 'uint8', pks: 'bytesList', ...TOKEN },
    responseFields: ['address'],
    run: async (p, km) => ({
      address: await km.importMultisig(s(p, 'wallet_handle_token'), p.ints.multisig_version ?? 0, p.ints.threshold ?? 0, p.lists.pks ?? []),
    }),
  },
  {
    method: 'POST',
    path: '/v1/multisig/list',
    summary: 'List stored multisig addresses',
    schema: TOKEN,
    responseFields: ['addresses'],
    run: (p, km) => ({ addresses: km.listMultisig(s(p, 'wallet_handle_token')) }),
  },
  {
    method: 'POST',
    path: '/v1/multisig/sign',
    summary: 'Start or extend a multisig signature over a transaction',
    schema: { transaction: 'bytes', public_key: 'bytes', signer: 'bytes', partial_multisig: 'multisig', ...TOKEN_PW },
    responseFields: ['multisig'],
    run: async (p, km, _form, call) => {
      const request: Parameters<KeyManager['signMultisigTransaction']>[2] = {
        transaction: p.bytes.transaction ?? new Uint8Array(0),
        publicKey: p.bytes.public_key ?? new Uint8Array(0),
      };
      if (p.multisig) request.partial = p.multisig;
      if (p.bytes.signer) request.signer = p.bytes.signer;
      return { multisig: toBase64(await km.signMultisigTransaction(s(p, 'wallet_handle_token'), s(p, 'wallet_password'), request, call)) };
    },
  },
  {
    method: 'POST',
    path: '/v1/multisig/signprogram',
    summary: 'Start or extend a multisig signature over a program',
    schema: { address: 'string', data: 'bytes', public_key: 'bytes', partial_multisig: 'multisig', use_legacy_msig: 'bool', ...TOKEN_PW },
    responseFields: ['multisig'],
    run: async (p, km, _form, call) => {
      const request: Parameters<KeyManager['signMultisigProgram']>[2] = {
        address: s(p, 'address'),
        program: p.bytes.data ?? new Uint8Array(0),
        publicKey: p.bytes.public_key ?? new Uint8Array(0),
        useLegacy: p.bools.use_legacy_msig ?? false,
      };
      if (p.multisig) request.partial = p.multisig;
      return { multisig: toBase64(await km.signMultisigProgram(s(p, 'wallet_handle_token'), s(p, 'wallet_password'), request, call)) };
    },
  },
  {
    method: 'POST',
    path: '/v1/program/sign',
    summary: 'Sign a program with the key of an address',
    schema: { address: 'string', data: 'bytes', ...TOKEN_PW },
    responseFields: ['sig'],
    run: async (p, km, _form, call) => ({
      sig: toBase64(await km.signProgram(s(p, 'wallet_handle_token'), s(p, 'wallet_password'), s(p, 'address'), p.bytes.data ?? new Uint8Array(0), call)),
    }),
  },
  {
    method: 'POST',
    path: '/v1/transaction/sign',
    summary: 'Sign a transaction with the sender key (or the given public key)',
    schema: { transaction: 'bytes', public_key: 'bytes', ...TOKEN_PW },
    responseFields: ['signed_transaction'],
    run: async (p, km, _form, call) => ({
      signed_transaction: toBase64(
        await km.signTransaction(s(p, 'wallet_handle_token'), s(p, 'wallet_password'), p.bytes.transaction ?? new Uint8Array(0), p.bytes.public_key, call),
      ),
    }),
  },
];

/** The interface description served at /swagger.json, generated from the endpoint table so it cannot drift. */
export function keyManagerSwagger(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (path: string, method: string, op: Record<string, unknown>) => ((paths[path] ??= {})[method.toLowerCase()] = op);
  add('/swagger.json', 'GET', {
    summary: 'This interface description',
    produces: ['application/json'],
    responses: { 200: { description: 'the interface description' }, default: { description: 'unknown error' } },
  });
  for (const e of ENDPOINTS) {
    const properties: Record<string, unknown> = {};
    for (const [k, kind] of Object.entries(e.schema)) properties[k] = schemaOf(kind);
    const op: Record<string, unknown> = {
      summary: e.summary,
      produces: ['application/json'],
      responses: {
        200: {
          description: 'success; on failure `error` is true and `message` says why',
          schema: { type: 'object', properties: Object.fromEntries(['error', 'message', ...e.responseFields].map((f) => [f, { description: f }])) },
        },
      },
    };
    if (Object.keys(properties).length > 0) op.parameters = [{ name: 'body', in: 'body', schema: { type: 'object', properties } }];
    if (!e.public) op.security = [{ api_key: [] }];
    add(e.path, e.method, op);
  }
  return {
    swagger: '2.0',
    info: {
      title: 'Tealworks key manager',
      description: 'Wallets, keys, multisig records and signing for the embedded devnet.',
      version: KEY_MANAGER_API_VERSIONS[0],
    },
    consumes: ['application/json'],
    produces: ['application/json'],
    schemes: ['http'],
    securityDefinitions: { api_key: { type: 'apiKey', name: KEY_MANAGER_TOKEN_HEADER, in: 'header' } },
    paths,
  };
}

function schemaOf(kind: string): Record<string, unknown> {
  switch (kind) {
    case 'string':
      return { type: 'string' };
    case 'bool':
      return { type: 'boolean' };
    case 'uint8':
      return { type: 'integer', format: 'uint8' };
    case 'bytes':
      return { description: 'bytes: base64 string or array of uint8' };
    case 'bytesList':
      return { type: 'array', items: { description: 'bytes: base64 string or array of uint8' } };
    default:
      return { type: 'object', description: 'MultisigSig' };
  }
}

/** `{"error": true, "message": "..."}`: every failure, whatever its status. */
export const keyManagerErrors: ErrorFormat = (e: HttpError) => {
  const reply = jsonReply({ error: true, message: e.message }, e.status);
  // Too many password attempts waiting: tell well-behaved clients when to come back.
  return e.status === 429 ? { ...reply, headers: { ...(reply.headers ?? {}), 'retry-after': '1' } } : reply;
};

export interface KeyManagerServiceOptions {
  /** The wallets to serve. */
  wallets: KeyManager;
  apiToken: string;
  /** Form of byte-typed response fields; default `array` (key-manager-service.md). */
  byteForm?: ByteForm;
  maxBodyBytes?: number;
  /** Close the key manager when the service closes (otherwise only pending writes are awaited). */
  ownsKeyManager?: boolean;
}

async function readBody(ctx: RequestContext, schema: Schema): Promise<Parsed> {
  let body: unknown;
  try {
    body = await ctx.json();
  } catch (e) {
    if (e instanceof HttpError && e.status === 413) throw e;
    throw new HttpError(400, MSG.decodeBody);
  }
  return parseRequest(body, schema);
}

/** The router of the key-manager API (key-manager-service.md) over a key manager. */
export function keyManagerRouter(options: Pick<KeyManagerServiceOptions, 'wallets' | 'byteForm'>): Router {
  const router = new Router();
  const km = options.wallets;
  const form = options.byteForm ?? 'array';
  const swagger = keyManagerSwagger();
  router.get('/swagger.json', () => jsonReply(swagger), { public: true });
  for (const e of ENDPOINTS) {
    router.add(
      e.method,
      e.path,
      async (ctx) => {
        // /versions takes an optional empty body that nobody needs to read.
        const parsed = e.public ? parseRequest({}, {}) : await readBody(ctx, e.schema);
        return jsonReply(omitEmpty(await e.run(parsed, km, form, { signal: ctx.signal })));
      },
      e.public ? { public: true } : {},
    );
  }
  return router;
}

/** The key-manager service definition: routes, token check and error format. */
export function keyManagerService(options: KeyManagerServiceOptions): ServiceDefinition {
  const km = options.wallets;
  return {
    name: 'kmd',
    router: keyManagerRouter(options),
    errors: keyManagerErrors,
    auth: { header: KEY_MANAGER_TOKEN_HEADER, tokens: [options.apiToken] },
    json: { indent: 2, sortKeys: true },
    ...(options.maxBodyBytes ? { maxBodyBytes: options.maxBodyBytes } : {}),
    onClose: () => (options.ownsKeyManager ? km.close() : km.flush()),
  };
}

/** How to start the key-manager service: the key manager (or its options), listening options, token. */
export interface StartKeyManagerOptions extends KeyManagerOptions, ServeOptions, Omit<KeyManagerServiceOptions, 'wallets'> {
  /** Serve these wallets instead of opening a key manager from `dataDir`/`store`. */
  wallets?: KeyManager;
}

/** A running key-manager service. */
export interface RunningKeyManager extends RunningService {
  /** The wallets it serves (in process). */
  readonly wallets: KeyManager;
}

/** Opens the key manager (unless given) and serves it on its own port. */
export async function startKeyManagerService(options: StartKeyManagerOptions): Promise<RunningKeyManager> {
  const owns = !options.wallets;
  const keyManager = options.wallets ?? (await KeyManager.open(options));
  try {
    const service = await serve(keyManagerService({ ...options, wallets: keyManager, ownsKeyManager: options.ownsKeyManager ?? owns }), options);
    return runningService(service, { wallets: keyManager });
  } catch (e) {
    if (owns) await keyManager.close();
    throw e;
  }
}
