import { TealworksError, ValidationError } from '../errors.js';

/** A position in a workflow file: 1-based line and column, as editors show them. */
export interface FilePosition {
  file: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
}

/** A problem in a workflow file, at a line and column. */
export interface WorkflowIssue extends FilePosition {
  message: string;
  /** JSON-pointer-like path inside the document, e.g. `steps[2].call.method`. */
  path: string;
  severity: 'error' | 'warning';
}

/** A workflow file with problems; `issues` lists all of them with file, line and column. */
export class WorkflowFileError extends ValidationError {
  readonly issues: readonly WorkflowIssue[];

  constructor(issues: readonly WorkflowIssue[]) {
    const errors = issues.filter((i) => i.severity === 'error');
    const shown = errors.slice(0, 5).map(formatIssue).join('\n');
    super(
      `${errors.length} problem${errors.length === 1 ? '' : 's'} in workflow file:\n${shown}${errors.length > 5 ? `\n… and ${errors.length - 5} more` : ''}`,
    );
    this.issues = issues;
  }
}

/** An issue as `file:line:col: message`. */
export function formatIssue(issue: WorkflowIssue): string {
  return `${issue.file}:${issue.line}:${issue.column}: ${issue.severity}: ${issue.message}${issue.path ? ` (at ${issue.path})` : ''}`;
}

/**
 * A `${{ … }}` expression that does not parse or evaluate. `offset`/`length` are in characters of
 * the text the expression was found in (the YAML scalar's value), so the file layer can turn them
 * into a line and column.
 */
export class ExprError extends ValidationError {
  readonly offset: number;
  readonly length: number;
  readonly detail: string;

  constructor(detail: string, offset: number, length = 1) {
    super(`${detail} (at character ${offset + 1})`);
    this.detail = detail;
    this.offset = offset;
    this.length = length;
  }
}

/**
 * An expression that failed while resolving a step, with the path of the string that held it so
 * the engine can report a file position (Workflow.positionInString(path, offset)).
 */
export class ExprPathError extends ExprError {
  readonly path: ReadonlyArray<string | number>;

  constructor(cause: ExprError, path: ReadonlyArray<string | number>) {
    super(cause.detail, cause.offset, cause.length);
    this.path = path;
  }
}

/** A checkpoint state file that cannot be read or written. */
export class CheckpointError extends TealworksError {}
