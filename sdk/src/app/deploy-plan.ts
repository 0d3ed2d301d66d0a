import { bytesEqual } from '../encoding/bytes.js';
import { decodeDeployNote, encodeDeployNote, type DeployMetadata } from './deploy-note.js';
import { DeployNoteError, DeployPlanError } from './errors.js';

/*
 * The idempotent-deploy decision, free of I/O. The engine gathers the creator's apps (creation
 * and latest update notes from the query service, program bytes and schemas from the node) and
 * acts on the plan. The decision table matches AlgoKit's deployer so both tools agree on what a
 * rerun does: a schema break is judged before a code change, and an update or replace is still
 * attempted on an app whose note says it is not updatable/deletable (the program itself is the
 * judge; the plan carries a warning, and the simulate-first rule stops a doomed group).
 */

/** When the programs changed: fail, update in place, replace or append. */
export type OnUpdate = 'fail' | 'update' | 'replace' | 'append';
/** When the app needs more state than it has: fail, replace (create new, delete old) or append (create new). */
export type OnSchemaBreak = 'fail' | 'replace' | 'append';
/** The values `onUpdate` accepts. */
export const ON_UPDATE_VALUES: readonly OnUpdate[] = ['fail', 'update', 'replace', 'append'];
/** The values `onSchemaBreak` accepts. */
export const ON_SCHEMA_BREAK_VALUES: readonly OnSchemaBreak[] = ['fail', 'replace', 'append'];

/** Global and local state schema: numbers of uint and byte-slice slots. */
export interface AppSchema {
  globalInts: number;
  globalBytes: number;
  localInts: number;
  localBytes: number;
}

/** Bytes one program page holds; extra pages add this much room to approval+clear together. */
export const PROGRAM_PAGE_SIZE = 2048;
/** The most extra program pages an app can have. */
export const MAX_EXTRA_PAGES = 3;

/** Fewest extra pages that fit both programs (a 2048-byte total needs none). */
export function requiredExtraPages(approval: Uint8Array, clear: Uint8Array): number {
  const total = approval.length + clear.length;
  return Math.max(0, Math.ceil(total / PROGRAM_PAGE_SIZE) - 1);
}

/** The app to deploy: deploy metadata, program bytes, schema and extra pages. */
export interface DesiredApp extends DeployMetadata {
  approval: Uint8Array;
  clear: Uint8Array;
  schema: AppSchema;
  /** Defaults to the fewest pages the programs need. */
  extraPages?: number;
}

/** One app the creator made, as found through its creation transaction. */
export interface CreatedApp {
  appId: bigint;
  createdRound: bigint;
  deleted?: boolean;
  /** Note of the creation transaction. */
  creationNote?: Uint8Array | string;
  /** Note of the creator's latest deploy-noted call to the app (an update), when later than creation. */
  latestNote?: Uint8Array | string;
  updatedRound?: bigint;
}

/** A deployment of `name` found among the creator's apps. */
export interface ExistingDeployment {
  appId: bigint;
  createdRound: bigint;
  updatedRound: bigint;
  deleted: boolean;
  /** Metadata of the last create/update (what is deployed now). */
  metadata: DeployMetadata;
  /** Metadata recorded at creation. */
  createdMetadata: DeployMetadata;
}

/** The deployed app's current programs and schema (from the node). */
export interface OnChainApp {
  approval: Uint8Array;
  clear: Uint8Array;
  schema: AppSchema;
  extraPages: number;
}

/**
 * Name → latest deployment among the creator's apps. Apps without a deploy note are skipped; when
 * two apps carry the same name the later-created one wins (that is the one a rerun talks to).
 * Notes that start like deploy notes but do not parse are reported in `problems`, not thrown.
 */
export function indexDeployments(apps: readonly CreatedApp[]): { byName: Map<string, ExistingDeployment>; problems: string[] } {
  const byName = new Map<string, ExistingDeployment>();
  const problems: string[] = [];
  const sorted = [...apps].sort((a, b) => (a.createdRound < b.createdRound ? -1 : a.createdRound > b.createdRound ? 1 : a.appId < b.appId ? -1 : 1));
  for (const app of sorted) {
    let created: DeployMetadata | undefined;
    let latest: DeployMetadata | undefined;
    try {
      created = decodeDeployNote(app.creationNote);
      latest = app.latestNote === undefined ? undefined : decodeDeployNote(app.latestNote);
    } catch (e) {
      if (!(e instanceof DeployNoteError)) throw e;
      problems.push(`app ${app.appId}: ${e.message}`);
      continue;
    }
    if (!created) continue;
    byName.set(created.name, {
      appId: app.appId,
      createdRound: app.createdRound,
      updatedRound: app.updatedRound ?? app.createdRound,
      deleted: app.deleted === true,
      metadata: latest ?? created,
      createdMetadata: created,
    });
  }
  return { byName, problems };
}

/** What to do when the programs changed (`onUpdate`) or the app needs more state (`onSchemaBreak`). */
export interface DeployOptions {
  onUpdate?: OnUpdate;
  onSchemaBreak?: OnSchemaBreak;
}

/** One schema field (or extra pages) the desired app needs more of: existing and desired counts. */
export interface SchemaChange {
  field: keyof AppSchema | 'extraPages';
  existing: number;
  desired: number;
}

/** What every deploy plan carries, whatever its action. */
export interface PlanBase {
  /** One sentence for people: what will happen and why. */
  reason: string;
  /** Things that will probably make the action fail (e.g. updating an app marked not updatable). */
  warnings: string[];
  /** Note for the create/update transaction (empty for nothing/fail). */
  note: Uint8Array;
  extraPages: number;
}

/** The deploy decision: create, update, replace, append, nothing, or fail with the reason. */
export type DeployPlan =
  | (PlanBase & { action: 'create'; previous?: ExistingDeployment })
  | (PlanBase & { action: 'append'; existing: ExistingDeployment; trigger: 'update' | 'schema-break' })
  | (PlanBase & { action: 'update'; existing: ExistingDeployment; appId: bigint })
  | (PlanBase & { action: 'replace'; existing: ExistingDeployment; deleteAppId: bigint; trigger: 'update' | 'schema-break' })
  | (PlanBase & { action: 'nothing'; existing: ExistingDeployment; appId: bigint })
  | (PlanBase & { action: 'fail'; existing: ExistingDeployment; trigger: 'update' | 'schema-break' });

/** How a desired app differs from the deployed one: approval or clear program changed, and schema breaks. */
export interface DeployComparison {
  approvalChanged: boolean;
  clearChanged: boolean;
  /** Only the growing fields: shrinking a schema is no break (the old app still has the room). */
  schemaBreaks: SchemaChange[];
}

/** Compares the desired app with the deployed one (programs, schema, extra pages). */
export function compareDeployment(desired: DesiredApp, onChain: OnChainApp): DeployComparison {
  const extraPages = desired.extraPages ?? requiredExtraPages(desired.approval, desired.clear);
  const schemaBreaks: SchemaChange[] = [];
  for (const field of ['globalInts', 'globalBytes', 'localInts', 'localBytes'] as const) {
    if (onChain.schema[field] < desired.schema[field]) schemaBreaks.push({ field, existing: onChain.schema[field], desired: desired.schema[field] });
  }
  if (onChain.extraPages < extraPages) schemaBreaks.push({ field: 'extraPages', existing: onChain.extraPages, desired: extraPages });
  return {
    approvalChanged: !bytesEqual(onChain.approval, desired.approval),
    clearChanged: !bytesEqual(onChain.clear, desired.clear),
    schemaBreaks,
  };
}

function describeBreaks(changes: readonly SchemaChange[]): string {
  return changes.map((c) => `${c.field} ${c.existing} → ${c.desired}`).join(', ');
}

function checkDesired(desired: DesiredApp): number {
  for (const field of ['globalInts', 'globalBytes', 'localInts', 'localBytes'] as const) {
    const v = desired.schema[field];
    if (!Number.isInteger(v) || v < 0) throw new DeployPlanError(`schema.${field} must be a non-negative integer, got ${v}`, 'input');
  }
  const needed = requiredExtraPages(desired.approval, desired.clear);
  const pages = desired.extraPages ?? needed;
  if (!Number.isInteger(pages) || pages < 0 || pages > MAX_EXTRA_PAGES)
    throw new DeployPlanError(`extraPages must be 0..${MAX_EXTRA_PAGES}, got ${pages}`, 'input');
  if (pages < needed) {
    throw new DeployPlanError(
      `programs are ${desired.approval.length + desired.clear.length} bytes and need ${needed} extra page(s), but extraPages is ${pages}`,
      'input',
    );
  }
  return pages;
}

/**
 * Decides what a deploy does. `existing` is the deployment of `desired.name` (from
 * indexDeployments) with its on-chain programs and schema; pass undefined when there is none.
 * Defaults: onUpdate "fail", onSchemaBreak "fail" (nothing changes unless asked).
 */
export function planDeploy(
  desired: DesiredApp,
  existing: { deployment: ExistingDeployment; onChain: OnChainApp } | undefined,
  options: DeployOptions = {},
): DeployPlan {
  const extraPages = checkDesired(desired);
  const note = encodeDeployNote(desired);
  const onUpdate = options.onUpdate ?? 'fail';
  const onSchemaBreak = options.onSchemaBreak ?? 'fail';
  if (!ON_UPDATE_VALUES.includes(onUpdate))
    throw new DeployPlanError(`onUpdate must be one of ${ON_UPDATE_VALUES.join(', ')}, got ${JSON.stringify(onUpdate)}`, 'input');
  if (!ON_SCHEMA_BREAK_VALUES.includes(onSchemaBreak))
    throw new DeployPlanError(`onSchemaBreak must be one of ${ON_SCHEMA_BREAK_VALUES.join(', ')}, got ${JSON.stringify(onSchemaBreak)}`, 'input');
  const empty = new Uint8Array(0);

  if (!existing)
    return {
      action: 'create',
      reason: `no app named "${desired.name}" was deployed by this creator; creating version ${desired.version}`,
      warnings: [],
      note,
      extraPages,
    };
  const { deployment, onChain } = existing;
  if (deployment.deleted) {
    return {
      action: 'create',
      previous: deployment,
      reason: `app ${deployment.appId} ("${desired.name}") was deleted; creating a new one`,
      warnings: [],
      note,
      extraPages,
    };
  }
  const cmp = compareDeployment(desired, onChain);
  const id = deployment.appId;

  if (cmp.schemaBreaks.length > 0) {
    const what = `app ${id} needs more storage than it was created with (${describeBreaks(cmp.schemaBreaks)})`;
    if (onSchemaBreak === 'fail') {
      return {
        action: 'fail',
        existing: deployment,
        trigger: 'schema-break',
        reason: `${what} and onSchemaBreak is "fail"; rerun with onSchemaBreak "replace" or "append" to deploy a new app`,
        warnings: [],
        note: empty,
        extraPages,
      };
    }
    if (onSchemaBreak === 'append') {
      return {
        action: 'append',
        existing: deployment,
        trigger: 'schema-break',
        reason: `${what}; onSchemaBreak "append" creates a new app and leaves ${id} in place`,
        warnings: [],
        note,
        extraPages,
      };
    }
    const warnings =
      deployment.metadata.deletable === true
        ? []
        : [`app ${id} is ${deployment.metadata.deletable === false ? 'marked not deletable' : 'not known to be deletable'}; deleting it will probably fail`];
    return {
      action: 'replace',
      existing: deployment,
      deleteAppId: id,
      trigger: 'schema-break',
      reason: `${what}; onSchemaBreak "replace" creates a new app and deletes ${id}`,
      warnings,
      note,
      extraPages,
    };
  }

  if (cmp.approvalChanged || cmp.clearChanged) {
    const parts = [cmp.approvalChanged ? 'approval' : '', cmp.clearChanged ? 'clear-state' : ''].filter(Boolean).join(' and ');
    const what = `the ${parts} program of app ${id} differs from the one to deploy`;
    switch (onUpdate) {
      case 'fail':
        return {
          action: 'fail',
          existing: deployment,
          trigger: 'update',
          reason: `${what} and onUpdate is "fail"; choose onUpdate "update", "replace" or "append"`,
          warnings: [],
          note: empty,
          extraPages,
        };
      case 'append':
        return {
          action: 'append',
          existing: deployment,
          trigger: 'update',
          reason: `${what}; onUpdate "append" creates a new app and leaves ${id} in place`,
          warnings: [],
          note,
          extraPages,
        };
      case 'update': {
        const warnings =
          deployment.metadata.updatable === true
            ? []
            : [`app ${id} is ${deployment.metadata.updatable === false ? 'marked not updatable' : 'not known to be updatable'}; the update will probably fail`];
        return { action: 'update', existing: deployment, appId: id, reason: `${what}; updating it to version ${desired.version}`, warnings, note, extraPages };
      }
      case 'replace': {
        const warnings =
          deployment.metadata.deletable === true
            ? []
            : [
                `app ${id} is ${deployment.metadata.deletable === false ? 'marked not deletable' : 'not known to be deletable'}; deleting it will probably fail`,
              ];
        return {
          action: 'replace',
          existing: deployment,
          deleteAppId: id,
          trigger: 'update',
          reason: `${what}; onUpdate "replace" creates a new app and deletes ${id}`,
          warnings,
          note,
          extraPages,
        };
      }
    }
  }

  return {
    action: 'nothing',
    existing: deployment,
    appId: id,
    reason: `app ${id} already runs these programs with enough storage; nothing to do`,
    warnings: [],
    note: empty,
    extraPages,
  };
}

/** Throws the plan's reason when it says to stop. */
export function assertDeployable(plan: DeployPlan): Exclude<DeployPlan, { action: 'fail' }> {
  if (plan.action === 'fail') throw new DeployPlanError(plan.reason, plan.trigger, plan.existing.appId);
  return plan;
}
