import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Arc56AppSpec, loadAppSpec } from '../abi/arc56.js';
import type { AbiValue } from '../abi/types.js';
import { AppClient } from '../app/client.js';
import { attachSourceMaps, compileContract, type CompiledContract } from '../app/compile.js';
import { bytesEqual } from '../encoding/bytes.js';
import { ASSUME_NEW_DEPLOYMENT, deployApp, findDeployments, type DeployResult, type LifecycleCall } from '../app/deploy.js';
import type { OnSchemaBreak, OnUpdate } from '../app/deploy-plan.js';
import { formatAbi, storageMapKey, type StorageItem } from '../app/state-decode.js';
import type { TemplateValue } from '../teal/assembler/results.js';
import { addressOf, type SenderLike } from './accounts.js';
import type { AmountLike } from './amount.js';
import { ClientError } from './errors.js';
import type { ConfirmedTransaction } from './sender.js';
import type { ClientContext } from './context.js';
import type { AccountManager } from './account-manager.js';

/** An app spec: parsed, as its JSON object, as JSON text, or the path of a `.json` file (ARC-56 or ARC-32). */
export type AppSpecInput = Arc56AppSpec | object | string;

/** See {@link AppManager}'s `[ADOPT_DEPLOYMENT]` (a test fixture's replayed deploys). @internal */
export const ADOPT_DEPLOYMENT: unique symbol = Symbol('tealworks.adoptDeployment');

/** `tw.app.deploy(…)`. */
export interface AppDeployInput {
  /** See `ASSUME_NEW_DEPLOYMENT` (a test fixture's fresh chain). @internal */
  [ASSUME_NEW_DEPLOYMENT]?: boolean;
  /** Who creates (and owns, by deploy note) the app. */
  creator: SenderLike;
  /** The app spec (methods, state, maps; its TEAL source or byte code when `approval`/`clear` are not given). */
  spec?: AppSpecInput;
  /** Approval program: TEAL text, or the path of a `.teal` file. */
  approval?: string;
  /** Clear-state program: TEAL text, or the path of a `.teal` file. */
  clear?: string;
  /** Deploy name (default: the spec's name): the same name by the same creator is the same app. */
  name?: string;
  /** Recorded in the deploy note (default "1.0"). */
  version?: string;
  /** Sets TMPL_UPDATABLE in the program and the note. */
  updatable?: boolean;
  /** Sets TMPL_DELETABLE in the program and the note. */
  deletable?: boolean;
  /** Deploy-time template values: `{ TMPL_FEE: 1000n }` (the `TMPL_` prefix may be left out). */
  template?: Record<string, TemplateValue>;
  /** When the programs changed (default fail). */
  onUpdate?: OnUpdate;
  /** When the app needs more state than it has (default fail). */
  onSchemaBreak?: OnSchemaBreak;
  /** Keep at least this much spendable in the app account (paid by the dispenser after the deploy). */
  fund?: AmountLike;
  /** ABI method calls for create / update / delete instead of bare calls. */
  create?: LifecycleCall;
  update?: LifecycleCall;
  delete?: LifecycleCall;
  /** Plan and simulate only; nothing is sent. */
  simulateOnly?: boolean;
  /** Base folder for relative file paths (default: the working directory). */
  baseDir?: string;
}

/** What `tw.app.deploy` returns: the deploy result and a client for the app. */
export interface AppDeployment extends DeployResult {
  /** A client for the deployed app (sender: the creator). */
  client: AppClient;
  /** The payment that funded the app account, when `fund` asked for one. */
  funding?: ConfirmedTransaction;
}

/** State read by `tw.app.state`: values decoded by the spec, keyed by their spec names (`map[key]` for map entries). */
export interface DecodedAppState {
  /** Global state. */
  global: Record<string, AbiValue | Uint8Array | bigint>;
  /** Every box. */
  boxes: Record<string, AbiValue | Uint8Array | bigint>;
}

/** The readable name of a state item: its key's spec name, `map[key]`, or the raw key as text or hex. */
export function stateItemName(item: StorageItem): string {
  if (item.match?.kind === 'key') return item.match.name;
  if (item.match?.kind === 'map') return `${item.match.name}[${formatAbi(item.mapKey).replace(/^"|"$/g, '')}]`;
  return item.keyView.utf8 ?? `0x${item.keyView.hex}`;
}

function itemsToRecord(items: readonly StorageItem[]): Record<string, AbiValue | Uint8Array | bigint> {
  const out: Record<string, AbiValue | Uint8Array | bigint> = {};
  for (const i of items) out[stateItemName(i)] = i.decoded ?? i.value;
  return out;
}

function readText(value: string, ext: string, baseDir: string, what: string): string {
  if (value.includes('\n') || !value.endsWith(ext)) return value;
  const path = resolve(baseDir, value);
  if (!existsSync(path)) throw new ClientError(`${what} file ${path} does not exist`);
  return readFileSync(path, 'utf8');
}

/**
 * Parses any {@link AppSpecInput}. A spec read from a file is shared by every load of the same
 * text: treat it (and its `json`) as read-only.
 */
export function loadSpec(spec: AppSpecInput, baseDir = process.cwd()): Arc56AppSpec {
  if (spec instanceof Arc56AppSpec) return spec;
  if (typeof spec === 'string') {
    const text = spec.trim();
    if (!text.includes('\n') && !text.endsWith('.json') && !text.startsWith('{'))
      throw new ClientError(`app spec ${JSON.stringify(text)} is neither a .json file path nor ARC-56 / ARC-32 JSON text: name the spec's .json file`);
    const json = readText(text, '.json', baseDir, 'app spec');
    if (json === text) return loadAppSpec(json);
    try {
      return specOfText(json);
    } catch (e) {
      throw new ClientError(`app spec file ${resolve(baseDir, text)} is not a valid app spec: ${(e as Error).message}`, { cause: e });
    }
  }
  return loadAppSpec(spec);
}

/**
 * Specs read from files, by their text: a test file deploys the same contract on each fresh
 * chain. A parsed spec is read-only, so one is shared by every deploy of the same text.
 */
const SPECS = new Map<string, Arc56AppSpec>();

function specOfText(json: string): Arc56AppSpec {
  let spec = SPECS.get(json);
  if (!spec) {
    spec = loadAppSpec(json);
    if (SPECS.size >= 16) SPECS.delete(SPECS.keys().next().value!);
    SPECS.set(json, spec);
  }
  return spec;
}

/** `tw.app`: deploy apps, get clients for them, read their state. */
export class AppManager {
  readonly #tw: ClientContext;
  readonly #accounts: AccountManager;

  /** @internal Made by `Tealworks`. */
  constructor(tw: ClientContext, accounts: AccountManager) {
    this.#tw = tw;
    this.#accounts = accounts;
  }

  /**
   * Deploys idempotently by creator and name (ARC-2 deploy notes): create, update, replace, append
   * or nothing, simulated before anything is sent; then funds the app account when `fund` says so.
   */
  async deploy(input: AppDeployInput): Promise<AppDeployment> {
    const { compiled, name, creator } = this.#prepare(input);
    const result = await deployApp({
      chain: this.#tw.chain,
      creator,
      resolveSigner: (a) => this.#tw.signerFor(a),
      observer: this.#tw.log,
      compiled,
      metadata: { name, version: input.version ?? '1.0', updatable: input.updatable ?? false, deletable: input.deletable ?? false },
      ...(input.onUpdate ? { onUpdate: input.onUpdate } : {}),
      ...(input.onSchemaBreak ? { onSchemaBreak: input.onSchemaBreak } : {}),
      ...(input.create ? { create: input.create } : {}),
      ...(input.update ? { update: input.update } : {}),
      ...(input.delete ? { delete: input.delete } : {}),
      ...(input.simulateOnly ? { simulateOnly: true } : {}),
      ...(input[ASSUME_NEW_DEPLOYMENT] ? { [ASSUME_NEW_DEPLOYMENT]: true } : {}),
    });
    const out = this.#deployment(result, compiled, name, creator);
    if (input.fund !== undefined && !input.simulateOnly) {
      await this.#accounts.ensureFunded(result.appAddress, input.fund);
      if (this.#accounts.lastFunding) out.funding = this.#accounts.lastFunding;
    }
    return out;
  }

  /**
   * The deployment `deploy(input)` made earlier on another chain, on this one, without sending
   * anything: for a caller that has put this chain in the state that deploy left (a test fixture
   * that replayed the deploy's blocks). The programs are compiled (and their source maps found)
   * as `deploy` does; undefined when they are not the bytes `earlier` deployed. @internal
   */
  [ADOPT_DEPLOYMENT](input: AppDeployInput, earlier: { result: Omit<AppDeployment, 'client'>; compiled: CompiledContract }): AppDeployment | undefined {
    const { compiled, name, creator } = this.#prepare(input);
    const app = earlier.compiled;
    if (!bytesEqual(app.approval.bytes, compiled.approval.bytes) || !bytesEqual(app.clear.bytes, compiled.clear.bytes) || name !== earlier.result.name)
      return undefined;
    const { funding, ...rest } = earlier.result;
    const out = this.#deployment(rest, compiled, name, creator);
    if (funding) out.funding = funding;
    return out;
  }

  /** What `deploy` checks, reads and compiles before it plans; registers the creator's signer. */
  #prepare(input: AppDeployInput): { compiled: CompiledContract; name: string; creator: string } {
    const base = input.baseDir ?? process.cwd();
    for (const [flag, names] of [
      ['updatable', ['TMPL_UPDATABLE', 'UPDATABLE']],
      ['deletable', ['TMPL_DELETABLE', 'DELETABLE']],
    ] as const) {
      const given = names.map((n) => input.template?.[n]).find((v) => v !== undefined);
      if (given !== undefined) {
        const wanted = input[flag] ?? false;
        const as = typeof given === 'boolean' ? given : typeof given === 'bigint' || typeof given === 'number' ? BigInt(given) !== 0n : undefined;
        if (as !== wanted)
          throw new ClientError(
            `template ${names[0]} is ${String(given)} but ${flag} is ${wanted}: leave ${names[0]} out of template, ${flag} sets it (in the program and the deploy note)`,
          );
      }
    }
    const spec = input.spec !== undefined ? loadSpec(input.spec, base) : undefined;
    const compiled = compileContract(
      {
        ...(input.approval !== undefined
          ? {
              approval: readText(input.approval, '.teal', base, 'approval program'),
              ...(input.approval.endsWith('.teal') ? { approvalName: input.approval } : {}),
            }
          : {}),
        ...(input.clear !== undefined
          ? { clear: readText(input.clear, '.teal', base, 'clear program'), ...(input.clear.endsWith('.teal') ? { clearName: input.clear } : {}) }
          : {}),
        ...(spec ? { spec } : {}),
      },
      { ...(input.template ? { template: input.template } : {}), updatable: input.updatable ?? false, deletable: input.deletable ?? false },
    );
    // Source maps beside the TEAL or the spec (Puya's `.puya.map`) let failures name user-source lines.
    const pathOf = (v: string | undefined, ext: string) => (v !== undefined && !v.includes('\n') && v.endsWith(ext) ? resolve(base, v) : undefined);
    const specPath = typeof input.spec === 'string' ? pathOf(input.spec.trim(), '.json') : undefined;
    attachSourceMaps(compiled, { approval: pathOf(input.approval, '.teal') ?? specPath, clear: pathOf(input.clear, '.teal') ?? specPath });
    const name = input.name ?? spec?.name;
    if (!name) throw new ClientError('the deploy needs a name (give `name`, or a spec with one)');
    const creator = addressOf(input.creator);
    if (typeof input.creator !== 'string') this.#tw.register(creator, input.creator.signer);
    return { compiled, name, creator };
  }

  /** A deploy's result with a client for the app (its members copied as they are: the report stays unbuilt until read). */
  #deployment(result: DeployResult, compiled: CompiledContract, name: string, creator: string): AppDeployment {
    const client = new AppClient({
      chain: this.#tw.chain,
      appId: result.appId,
      compiled,
      name,
      sender: creator,
      resolveSigner: (a) => this.#tw.signerFor(a),
      observer: this.#tw.log,
    });
    const out = Object.defineProperties({}, Object.getOwnPropertyDescriptors(result)) as AppDeployment;
    out.client = client;
    return out;
  }

  /** A client for an existing app: calls by method name, decoded returns, state and boxes. */
  client(spec: AppSpecInput | undefined, appId: bigint | number, options: { sender?: SenderLike } = {}): AppClient {
    const id = typeof appId === 'bigint' ? appId : BigInt(appId);
    const sender = options.sender !== undefined ? addressOf(options.sender) : undefined;
    if (options.sender !== undefined && typeof options.sender !== 'string') this.#tw.register(sender!, options.sender.signer);
    return new AppClient({
      chain: this.#tw.chain,
      appId: id,
      ...(spec !== undefined ? { spec: loadSpec(spec) } : {}),
      ...(sender ? { sender } : {}),
      resolveSigner: (a) => this.#tw.signerFor(a),
      observer: this.#tw.log,
    });
  }

  /**
   * A client for the app `creator` deployed under `name` (found through the ARC-2 deploy notes of
   * its creation and updates, read from the query service), as `deploy` finds it. Throws when that
   * creator has no such app, or deleted it.
   */
  async fromCreatorAndName(spec: AppSpecInput | undefined, creator: SenderLike, name?: string, options: { sender?: SenderLike } = {}): Promise<AppClient> {
    const parsed = spec !== undefined ? loadSpec(spec) : undefined;
    const wanted = name ?? parsed?.name;
    if (!wanted) throw new ClientError('finding an app by creator and name needs the name (give it, or a spec with one)');
    const address = addressOf(creator);
    const { byName } = await findDeployments(this.#tw.chain, address);
    const found = byName.get(wanted);
    if (!found)
      throw new ClientError(
        `${address} has deployed no app named ${JSON.stringify(wanted)}${byName.size ? ` (its deployed apps: ${[...byName.keys()].map((n) => JSON.stringify(n)).join(', ')})` : ''}; deploy it first with tw.app.deploy`,
      );
    if (found.deleted) throw new ClientError(`the app ${found.appId} that ${address} deployed as ${JSON.stringify(wanted)} was deleted`);
    return this.client(parsed, found.appId, { sender: options.sender ?? creator });
  }

  /** Global state and every box of an app, decoded by its spec. */
  async state(app: AppClient): Promise<DecodedAppState> {
    const global = itemsToRecord(await app.globalState());
    const items: StorageItem[] = [];
    let next: string | undefined;
    do {
      const page = await app.boxes({ values: true, ...(next ? { next } : {}) });
      items.push(...page.items);
      next = page.next;
    } while (next);
    return { global, boxes: itemsToRecord(items) };
  }
}

/** Global state of an app, decoded by its client's spec and keyed by spec names. */
export async function readGlobalState(app: AppClient): Promise<Record<string, AbiValue | Uint8Array | bigint>> {
  return itemsToRecord(await app.globalState());
}

/** Local state of an account in an app, decoded by the client's spec and keyed by spec names. */
export async function readLocalState(app: AppClient, address: string): Promise<Record<string, AbiValue | Uint8Array | bigint>> {
  return itemsToRecord(await app.localState(address));
}

/** The value of one entry of a box map (by the map's name in the spec and the entry's key), or undefined when that box does not exist. */
export async function readBoxMapValue(app: AppClient, mapName: string, key: AbiValue | Uint8Array): Promise<AbiValue | Uint8Array | undefined> {
  if (!app.spec) throw new ClientError(`reading box map ${JSON.stringify(mapName)} needs the app spec; make the client with one`);
  const item = await app.box(storageMapKey(app.spec, 'box', mapName, key));
  return item === undefined ? undefined : (item.decoded ?? (item.value as Uint8Array));
}
