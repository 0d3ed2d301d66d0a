// Prints the workflow JSON Schema; `npx tsx sdk/src/workflow/print-schema.ts > schemas/tealworks.schema.json`.
import { WORKFLOW_SCHEMA } from './schema.js';

export function workflowSchemaJson(): string {
  return JSON.stringify(WORKFLOW_SCHEMA, null, 2) + '\n';
}

if (typeof process !== 'undefined' && process.argv[1] && /print-schema\.[tj]s$/.test(process.argv[1])) process.stdout.write(workflowSchemaJson());
