// Wording of workflow progress for the output channel and the results view. Pure (no vscode).
import type { ProgressEvent } from '@tealworks/sdk/workflow';

export const STATUS_MARK: Record<string, string> = { done: '✓', cached: '↺', simulated: '≈', skipped: '–', failed: '✗' };

/** One line per progress event, for the output channel. Pure. */
export function workflowEventLine(e: ProgressEvent): string {
  switch (e.type) {
    case 'start':
      return `▶ ${e.workflow} on ${e.network}: ${e.steps} step${e.steps === 1 ? '' : 's'} (checkpoint ${e.checkpoint})${e.discarded ? `; ${e.discarded}` : ''}`;
    case 'step-start':
      return `  … ${e.id} (${e.kind})${e.name ? ` ${e.name}` : ''}`;
    case 'step-end':
      return `  ${STATUS_MARK[e.step.status] ?? '?'} ${e.step.id}: ${e.step.status}${e.step.detail ? ` — ${e.step.detail}` : ''} (${e.step.durationMs} ms)${e.step.error ? `\n      ${e.step.error.message}${e.step.error.reportText ? `\n${e.step.error.reportText.replace(/^/gm, '      ')}` : ''}` : ''}`;
    case 'end':
      return `${e.summary.ok ? '■ passed' : '■ FAILED'}${e.summary.error ? `: ${e.summary.error.message}` : ''}`;
  }
}
