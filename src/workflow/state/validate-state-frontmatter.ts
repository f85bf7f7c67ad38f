import type { ValidateFunction } from 'ajv';
import { compileJsonSchema, describeSchemaFault, type SchemaFault } from '../../core/json-schema.js';

const nodeIdPattern = '^[A-Za-z0-9][A-Za-z0-9._:-]*$';

/** `workflow-frontmatter.schema.json` of package format v1.1 (docs/workflows.md §1.5): the run state's shape. */
export const stateFrontmatterSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['schemaVersion', 'workflowType', 'currentNodeId', 'stepsCompleted'],
  additionalProperties: true,
  properties: {
    schemaVersion: { type: 'string', pattern: '^1\\.1(\\.\\d+)?$' },
    workflowType: { type: 'string', minLength: 1 },
    currentNodeId: { type: 'string' },
    stepsCompleted: { type: 'array', items: { type: 'string', pattern: nodeIdPattern } },
    runId: { type: 'string' },
    project_name: { type: 'string' },
    user_name: { type: 'string' },
    date: { type: 'string' },
    updatedAt: { type: 'string', format: 'date-time' },
    variables: { type: 'object' },
    decisionLog: {
      type: 'array',
      items: {
        type: 'object',
        required: ['from', 'to', 'label'],
        additionalProperties: false,
        properties: {
          from: { type: 'string' },
          to: { type: 'string' },
          label: { type: 'string' },
          reason: { type: 'string' },
          decidedAt: { type: 'string', format: 'date-time' },
        },
      },
    },
    artifacts: { type: 'array', items: { type: 'string' } },
  },
} as const;

let compiled: ValidateFunction | undefined;

/** The faults of a (normalized) state frontmatter against the schema; empty when it is valid. */
export function validateStateFrontmatter(frontmatter: Record<string, unknown>): SchemaFault[] {
  compiled ??= compileJsonSchema(stateFrontmatterSchema as unknown as Record<string, unknown>, {
    formats: true,
  });
  if (compiled(frontmatter)) return [];
  return (compiled.errors ?? []).map(describeSchemaFault);
}
