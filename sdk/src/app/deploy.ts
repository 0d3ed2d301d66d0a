import type { Signer } from '../adapters/signer.js';
import type { AbiValue } from '../abi/types.js';
import { AppClient, type AppCallOptions } from './client.js';
import { appAddressOf, AppNotFoundError, fetchApp, type AppChain } from './chain.js';
import { desiredApp, type CompiledContract } from './compile.js';
import { GroupComposer, reportMayReturn, type ComposerObserver, type SignerResolver } from './composer.js';
import { defineLazy } from '../lazy.js';
import { DEPLOY_NOTE_PREFIX, isDeployNote, type DeployMetadata } from './deploy-note.js';
import { indexDeployments, planDeploy, type CreatedApp, type DeployOptions, type DeployPlan, type ExistingDeployment } from './deploy-plan.js';
import { AppError, DeployPlanError, SimulateFailedError } from './errors.js';
import { failureSummary, type SimulateReport } from './simulate-report.js';
import { fromBase64 } from '../encoding/base64.js';
import { OnComplete } from '../txn/types.js';
import { HttpClient, pathOf } from '../adapters/http/client.js';
import type { Arc56AppSpec } from '../abi/arc56.js';

/*
 * Idempotent deploys: find what this creator deployed under the app name (ARC-2 deploy notes on
 * creation and update transactions, read through the query service), plan with deploy-plan.ts,
 * then act. Every action is one group that is simulated before anything is signed; a group that
 * would fail stops the deploy with the simulate report (SimulateFailedError).
 */

/** An ABI method (and its arguments) to call for create, update or delete instead of a bare call. */
export interface LifecycleCall {
  method: string;
  args?: readonly unknown[];
}

/** An idempotent deploy: chain, creator and signer, compiled contract, metadata, update and schema-break policies, lifecycle methods. */
/**
 * Set by a caller that made the chain itself a moment ago and deployed nothing of this name from
 * this creator on it (a test fixture's fresh chain): the plan is a create, without looking up
 * earlier deployments, which would find none. Not part of the public API. @internal
 */
export const ASSUME_NEW_DEPLOYMENT: unique symbol = Symbol('tealworks.assumeNewDeployment');

export interface DeployAppOptions extends DeployOptions {
  /** See {@link ASSUME_NEW_DEPLOYMENT}. @internal */
  [ASSUME_NEW_DEPLOYMENT]?: boolean;
  chain: AppChain;
  creator: string;
  signer?: Signer;
  resolveSigner?: SignerResolver;
  /** Told about the deploy group's simulations, submission and confirmation (a transaction log). */
  observer?: ComposerObserver;
  compiled: CompiledContract;
  metadata: DeployMetadata;
  /** Schema/extra pages other than the spec's. */
  schema?: Partial<CompiledContract['schema']>;
  extraPages?: number;
  create?: LifecycleCall;
  update?: LifecycleCall;
  delete?: LifecycleCall;
  extraFee?: bigint;
  /** Plan and simulate only; nothing is sent. */
  simulateOnly?: boolean;
}

/** What a deploy did: the action, app id and address, the plan, transaction and round, and the gate simulation. */
export interface DeployResult {
  /** What the deploy did: `create`, `update`, `replace`, `append`, `nothing` (or would do, when simulated). */
  action: DeployPlan['action'];
  /** The deploy name (ARC-2 note). */
  name: string;
  /** The version recorded in the deploy note. */
  version: string;
  /** The app id (the new one after create, replace or append). */
  appId: bigint;
  /** The app's account address. */
  appAddress: string;
  /** The plan the deploy followed, with the reason. */
  plan: DeployPlan;
  /** Id of the create or update transaction. */
  txid?: string;
  /** The round the deploy transaction was confirmed in (absent for "nothing" and simulated deploys). */
  confirmedRound?: bigint;
  /** Return value of an ABI create or update method. */
  returnValue?: AbiValue;
  /** The app deleted by a replace. */
  deletedAppId?: bigint;
  /** The gate simulation (absent for "nothing"). */
  report?: SimulateReport;
  /** True when `simulateOnly` asked for a plan and simulation only. */
  simulated?: boolean;
}

/** The creator's apps that carry deploy notes, with their latest update notes. */
export async function findDeployments(chain: AppChain, creator: string): Promise<{ byName: Map<string, ExistingDeployment>; problems: string[] }> {
  if (!chain.query) throw new AppError('finding earlier deployments needs the query service, and this network has none configured');
  const apps = new Map<bigint, CreatedApp>();
  const updates = new Map<bigint, { round: bigint; note: Uint8Array }>();
  for await (const t of chain.query.transactions(
    { address: creator, addressRole: 'sender', txType: 'appl', notePrefix: DEPLOY_NOTE_PREFIX },
    { pageSize: 1000, maxPages: 100 },
  )) {
    if (!t.note) continue;
    const note = fromBase64(t.note);
    if (!isDeployNote(note)) continue;
    const a = t.applicationTransaction;
    const round = t.confirmedRound ?? 0n;
    if (t.createdApplicationIndex) {
      apps.set(t.createdApplicationIndex, { appId: t.createdApplicationIndex, createdRound: round, creationNote: note });
    } else if (a && a.onCompletion === 'update') {
      const prev = updates.get(a.applicationId);
      if (!prev || prev.round <= round) updates.set(a.applicationId, { round, note });
    }
  }
  for (const [id, u] of updates) {
    const app = apps.get(id);
    if (app) {
      app.latestNote = u.note;
      app.updatedRound = u.round;
    }
  }
  const index = indexDeployments([...apps.values()]);
  // Deleted apps are only known by asking for them.
  for (const [name, d] of index.byName) {
    try {
      await fetchApp(chain, d.appId);
    } catch (e) {
      if (e instanceof AppNotFoundError) index.byName.set(name, { ...d, deleted: true });
      else throw e;
    }
  }
  return index;
}

/** Plans a deploy without acting: finds the creator's deployment by name and compares. */
export async function planAppDeploy(options: DeployAppOptions): Promise<DeployPlan> {
  const desired = desiredApp(options.compiled, options.metadata, {
    ...(options.schema ? { schema: options.schema } : {}),
    ...(options.extraPages !== undefined ? { extraPages: options.extraPages } : {}),
  });
  const { byName } = options[ASSUME_NEW_DEPLOYMENT] ? { byName: new Map<string, ExistingDeployment>() } : await findDeployments(options.chain, options.creator);
  const found = byName.get(options.metadata.name);
  let existing: Parameters<typeof planDeploy>[1];
  if (found && !found.deleted) {
    const app = await fetchApp(options.chain, found.appId);
    existing = { deployment: found, onChain: { approval: app.approval, clear: app.clear, schema: app.schema, extraPages: app.extraPages } };
  } else if (found)
    existing = {
      deployment: found,
      onChain: { approval: new Uint8Array(0), clear: new Uint8Array(0), schema: { globalInts: 0, globalBytes: 0, localInts: 0, localBytes: 0 }, extraPages: 0 },
    };
  return planDeploy(desired, existing, {
    ...(options.onUpdate ? { onUpdate: options.onUpdate } : {}),
    ...(options.onSchemaBreak ? { onSchemaBreak: options.onSchemaBreak } : {}),
  });
}

/** Deploys per the plan; throws DeployPlanError for "fail" and SimulateFailedError when the group would fail. */
export async function deployApp(options: DeployAppOptions): Promise<DeployResult> {
  const plan = await planAppDeploy(options);
  const base = { name: options.metadata.name, version: options.metadata.version, plan };
  if (plan.action === 'fail') throw new DeployPlanError(plan.reason, plan.trigger, plan.existing.appId);
  if (plan.action === 'nothing') {
    // Already deployed: still tell a devnet the spec (it may have been restarted in memory).
    if (options.compiled.spec && !options.simulateOnly) await registerSpecWithDevnet(options.chain, plan.appId, options.compiled.spec);
    return { ...base, action: 'nothing', appId: plan.appId, appAddress: appAddressOf(plan.appId) };
  }

  const clientOpts = {
    chain: options.chain,
    spec: options.compiled.spec,
    name: options.metadata.name,
    sender: options.creator,
    ...(options.signer ? { signer: options.signer } : {}),
    ...(options.resolveSigner ? { resolveSigner: options.resolveSigner } : {}),
  };
  const schema = { ...options.compiled.schema, ...options.schema };
  const composer = new GroupComposer(options.chain, options.resolveSigner, options.observer);
  let mainIndex: number;
  let deletedAppId: bigint | undefined;
  const common: AppCallOptions = { note: plan.note, ...(options.extraFee ? { extraFee: options.extraFee } : {}) };

  if (plan.action === 'update') {
    const client = new AppClient({ ...clientOpts, appId: plan.appId, compiled: options.compiled });
    const built = await client.buildCall(options.update?.method, options.update?.args ?? [], {
      ...common,
      update: { compiled: options.compiled },
      onComplete: OnComplete.UpdateApplication,
    });
    built.entries.forEach((e) => composer.add(e));
    composer.knowApp(plan.appId, client.knowledge());
    mainIndex = built.callIndex;
  } else {
    const creator = new AppClient({ ...clientOpts, appId: 0n, compiled: options.compiled });
    const built = await creator.buildCall(options.create?.method, options.create?.args ?? [], {
      ...common,
      create: { compiled: options.compiled, schema, extraPages: plan.extraPages },
    });
    built.entries.forEach((e) => composer.add(e));
    mainIndex = built.callIndex;
    if (plan.action === 'replace') {
      deletedAppId = plan.deleteAppId;
      const old = new AppClient({ ...clientOpts, appId: plan.deleteAppId });
      const del = await old.buildCall(options.delete?.method, options.delete?.args ?? [], { onComplete: OnComplete.DeleteApplication });
      del.entries.forEach((e) => composer.add(e));
    }
  }

  if (options.simulateOnly) {
    await composer.prepare({ populateResources: true, coverInnerFees: true });
    const report = await composer.simulate();
    const created = report.txns[mainIndex]?.createdAppId;
    const appId = plan.action === 'update' ? plan.appId : (created ?? 0n);
    return {
      ...base,
      action: plan.action,
      appId,
      appAddress: appAddressOf(appId),
      report,
      simulated: true,
      ...(deletedAppId !== undefined ? { deletedAppId } : {}),
    };
  }

  const sent = await composer.send({ populateResources: true, coverInnerFees: true });
  const main = sent.txns[mainIndex]!;
  const appId = plan.action === 'update' ? plan.appId : main.createdAppId;
  if (appId === undefined) throw new AppError(`the create transaction ${main.txid} was confirmed but the node did not report the new app id`);
  const result: DeployResult = {
    ...base,
    action: plan.action,
    appId,
    appAddress: appAddressOf(appId),
    plan,
    txid: main.txid,
    confirmedRound: main.confirmedRound,
  } as DeployResult;
  // Built when first read (see SendResult.report).
  defineLazy(result, 'report', () => sent.report);
  const rv = main.returnValue ?? (reportMayReturn(composer.entries[mainIndex]!) ? sent.report.txns[mainIndex]?.returnValue : undefined);
  if (rv !== undefined) result.returnValue = rv;
  if (deletedAppId !== undefined) result.deletedAppId = deletedAppId;
  if (options.compiled.spec) await registerSpecWithDevnet(options.chain, appId, options.compiled.spec);
  return result;
}

/**
 * Tells a tealworks devnet which spec a deployed app has, so its simulate types the app's ABI
 * return values (`PUT /v1/devnet/apps/{id}/spec`). Best effort: other nodes lack the operation,
 * and a deploy never fails over it.
 */
export async function registerSpecWithDevnet(chain: AppChain, appId: bigint, spec: Arc56AppSpec): Promise<boolean> {
  const http = (chain.node as { http?: unknown }).http;
  if (chain.node.kind !== 'node-service' || !(http instanceof HttpClient)) return false;
  try {
    await http.send({ method: 'PUT', path: pathOf('v1', 'devnet', 'apps', appId, 'spec'), json: spec.json, retry: false });
    return true;
  } catch {
    return false;
  }
}

export { SimulateFailedError, failureSummary };
