// After a workflow run: which app each deploy step created or updated, with the approval program
// and ARC-56 spec of its contract, so the editor links them exactly like its own deploys (lenses,
// typed call forms, decoded boxes). Pure: paths are absolute, the caller makes them relative.
import { contractFilePath, loadWorkflow } from '@tealworks/sdk/workflow';

export interface WorkflowDeployLink {
  appId: bigint;
  /** Absolute path of the approval program, when the contract names one. */
  approval?: string;
  /** Absolute path of the ARC-56 spec, when the contract names one. */
  spec?: string;
  contract: string;
}

/** Deploy steps of `workflowText` with the app ids the run's `outputs` report for them. */
export function workflowDeployLinks(workflowText: string, workflowFile: string, outputs: Record<string, unknown>): WorkflowDeployLink[] {
  let wf;
  try {
    wf = loadWorkflow(workflowText, workflowFile);
  } catch {
    return [];
  }
  const out: WorkflowDeployLink[] = [];
  for (const step of wf.steps) {
    if (step.kind !== 'deploy') continue;
    const id = (outputs[step.id] as Record<string, unknown> | null | undefined)?.['app-id'];
    if (typeof id !== 'bigint') continue;
    const c = wf.contracts[step.body.contract];
    if (!c) continue;
    out.push({
      appId: id,
      contract: c.key,
      ...(c.approval ? { approval: contractFilePath(workflowFile, c.approval) } : {}),
      ...(c.spec ? { spec: contractFilePath(workflowFile, c.spec) } : {}),
    });
  }
  return out;
}
