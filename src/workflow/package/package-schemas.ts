// The JSON Schemas of package format v1.1 (docs/workflows.md §1), draft 2020-12. The state frontmatter's own
// schema, which `workflow.md` templates are checked against too, is in state/validate-state-frontmatter.ts.
const idPattern = '^[A-Za-z0-9][A-Za-z0-9._:-]*$';
const versionPattern = '^1\\.1(\\.\\d+)?$';
const dialect = 'https://json-schema.org/draft/2020-12/schema';
const nonEmpty = { type: 'string', minLength: 1 };

export const manifestSchema = {
  $schema: dialect,
  type: 'object',
  additionalProperties: false,
  required: ['schemaVersion', 'name', 'version', 'entry'],
  properties: {
    schemaVersion: { type: 'string', pattern: versionPattern },
    name: nonEmpty,
    version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$' },
    description: { type: 'string' },
    author: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    entry: {
      type: 'object',
      additionalProperties: false,
      required: ['workflow', 'graph', 'agents'],
      properties: { workflow: nonEmpty, graph: nonEmpty, agents: nonEmpty, assetsDir: { type: 'string' } },
    },
    workflows: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'workflow', 'graph'],
        properties: {
          id: { type: 'string', pattern: idPattern },
          workflow: nonEmpty,
          graph: nonEmpty,
          displayName: { type: 'string' },
          description: { type: 'string' },
          tags: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    runtime: {
      type: 'object',
      additionalProperties: false,
      properties: { minRuntimeVersion: { type: 'string' }, requiresNetwork: { type: 'boolean' } },
    },
    integrity: {
      type: 'object',
      additionalProperties: false,
      properties: { sha256: { type: 'string', pattern: '^[a-fA-F0-9]{64}$' } },
    },
  },
} as const;

const principles = {
  oneOf: [nonEmpty, { type: 'array', minItems: 1, items: nonEmpty }],
};

export const agentsSchema = {
  $schema: dialect,
  type: 'object',
  additionalProperties: false,
  required: ['schemaVersion', 'agents'],
  properties: {
    schemaVersion: { type: 'string', pattern: versionPattern },
    agents: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'metadata', 'persona'],
        properties: {
          id: { type: 'string', pattern: idPattern },
          metadata: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'title', 'icon'],
            properties: {
              name: nonEmpty,
              title: nonEmpty,
              icon: nonEmpty,
              module: { type: 'string' },
              description: { type: 'string' },
              sourceId: { type: 'string' },
            },
          },
          persona: {
            type: 'object',
            additionalProperties: false,
            required: ['role', 'identity', 'communication_style', 'principles'],
            properties: { role: nonEmpty, identity: nonEmpty, communication_style: nonEmpty, principles },
          },
          critical_actions: { type: 'array', items: nonEmpty },
          prompts: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['id', 'content'],
              properties: { id: nonEmpty, content: nonEmpty, description: { type: 'string' } },
            },
          },
          menu: {
            type: 'array',
            items: {
              type: 'object',
              required: ['description'],
              properties: {
                description: nonEmpty,
                trigger: { type: 'string' },
                triggers: { type: 'array', items: { type: 'object' } },
                workflow: { type: 'string' },
                exec: { type: 'string' },
                action: { type: 'string' },
                data: { type: 'string' },
                'validate-workflow': { type: 'string' },
                'ide-only': { type: 'boolean' },
                'web-only': { type: 'boolean' },
              },
            },
          },
          systemPrompt: { type: 'string' },
          userPromptTemplate: { type: 'string' },
          discussion: { type: 'boolean' },
          webskip: { type: 'boolean' },
          conversational_knowledge: { type: 'array', items: { type: 'object' } },
          tools: {
            type: 'object',
            additionalProperties: false,
            properties: {
              fs: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  enabled: { type: 'boolean' },
                  maxReadBytes: { type: 'integer', minimum: 1 },
                  maxWriteBytes: { type: 'integer', minimum: 1 },
                },
              },
              mcp: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  enabled: { type: 'boolean' },
                  allowedServers: { type: 'array', items: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

const nodeTypes = ['step', 'decision', 'merge', 'end', 'subworkflow'];

export const graphSchema = {
  $schema: dialect,
  type: 'object',
  additionalProperties: false,
  required: ['schemaVersion', 'entryNodeId', 'nodes', 'edges'],
  properties: {
    schemaVersion: { type: 'string', pattern: versionPattern },
    entryNodeId: { type: 'string', pattern: idPattern },
    nodes: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'type', 'file'],
        properties: {
          id: { type: 'string', pattern: idPattern },
          type: { enum: nodeTypes },
          file: nonEmpty,
          title: { type: 'string' },
          description: { type: 'string' },
          agentId: { type: 'string' },
          inputs: { type: 'array', items: { type: 'string' } },
          outputs: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    edges: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['from', 'to', 'label'],
        properties: {
          id: { type: 'string' },
          from: { type: 'string', pattern: idPattern },
          to: { type: 'string', pattern: idPattern },
          label: nonEmpty,
          isDefault: { type: 'boolean' },
          conditionText: { type: 'string' },
          conditionExpr: { type: 'object' },
        },
      },
    },
    metadata: { type: 'object' },
  },
} as const;

export const stepFrontmatterSchema = {
  $schema: dialect,
  type: 'object',
  required: ['schemaVersion', 'nodeId', 'type'],
  properties: {
    schemaVersion: { type: 'string', pattern: versionPattern },
    nodeId: { type: 'string', pattern: idPattern },
    type: { enum: nodeTypes },
    title: { type: 'string' },
    agentId: { type: 'string' },
    inputs: { type: 'array', items: { type: 'string' } },
    outputs: { type: 'array', items: { type: 'string' } },
    setsVariables: { type: 'array', items: { type: 'string' } },
    transitions: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['to', 'label'],
        properties: {
          to: { type: 'string' },
          label: { type: 'string' },
          isDefault: { type: 'boolean' },
          conditionText: { type: 'string' },
        },
      },
    },
  },
} as const;
