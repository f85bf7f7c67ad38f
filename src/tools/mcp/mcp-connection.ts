import { createWriteStream, type WriteStream } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SpineError } from '../../core/spine-error.js';
import type { McpServerSpec } from './mcp-server-spec.js';

/** A tool as a server lists it. */
export interface McpTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** One content part of a tool result, as Spine passes it on. */
export type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; mimeType: string; data: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string };

export interface McpCallOutcome {
  isError: boolean;
  content: McpContent[];
  structuredContent?: unknown;
}

export interface McpConnectionOptions {
  /** Where the server's stderr goes (a file in the run folder); never the terminal. */
  stderrPath?: string;
  /** Called when the server says its tool list changed. */
  onToolsChanged?: () => void;
  clientVersion?: string;
}

/**
 * A connection to one MCP server through the official SDK, made on first use. A server that crashed or closed is
 * started again at the next use; its stderr is appended to a file. Requests take an AbortSignal and a timeout:
 * the SDK then sends `notifications/cancelled` to the server.
 */
export class McpConnection {
  readonly spec: McpServerSpec;
  readonly #options: McpConnectionOptions;
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  #stderr: WriteStream | undefined;

  constructor(spec: McpServerSpec, options: McpConnectionOptions = {}) {
    this.spec = spec;
    this.#options = options;
  }

  async listTools(): Promise<McpTool[]> {
    const client = await this.#connected();
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      for (const tool of page.tools)
        tools.push({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema as Record<string, unknown>,
        });
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: {
      signal?: AbortSignal;
      timeoutMs?: number;
      onProgress?: (progress: number, total?: number) => void;
    },
  ): Promise<McpCallOutcome> {
    const client = await this.#connected();
    try {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.timeoutMs ? { timeout: options.timeoutMs, resetTimeoutOnProgress: true } : {}),
        ...(options.onProgress
          ? {
              onprogress: (progress: { progress: number; total?: number }) =>
                options.onProgress!(progress.progress, progress.total),
            }
          : {}),
      });
      const outcome: McpCallOutcome = {
        isError: result.isError === true,
        content: ((result.content ?? []) as Array<Record<string, unknown>>).map(toContent),
      };
      if (result.structuredContent !== undefined) outcome.structuredContent = result.structuredContent;
      return outcome;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      // A closed or crashed server: forget it, so the next call starts it again.
      if (this.#client !== client || isConnectionLoss(error)) await this.#forget();
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.#forget();
    this.#stderr?.end();
    this.#stderr = undefined;
  }

  #connected(): Promise<Client> {
    if (this.#client !== undefined) return Promise.resolve(this.#client);
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connect(): Promise<Client> {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { ToolListChangedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const client = new Client(
      { name: 'spine', version: this.#options.clientVersion ?? '0' },
      { capabilities: {} },
    );
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      this.#options.onToolsChanged?.();
    });
    client.onclose = () => {
      if (this.#client === client) this.#client = undefined;
    };
    try {
      if ('command' in this.spec) await client.connect(await this.#stdioTransport(this.spec));
      else await this.#connectHttp(client, this.spec);
    } catch (error) {
      throw new SpineError({
        code: 'MCP_CONNECTION_FAILED',
        message: `MCP server ${this.spec.name} could not be reached: ${(error as Error).message}`,
        details: { server: this.spec.name },
        cause: error,
      });
    }
    this.#client = client;
    return client;
  }

  async #stdioTransport(spec: Extract<McpServerSpec, { command: string }>): Promise<Transport> {
    const { StdioClientTransport, getDefaultEnvironment } = await import(
      '@modelcontextprotocol/sdk/client/stdio.js'
    );
    const transport = new StdioClientTransport({
      command: spec.command,
      args: spec.args ?? [],
      // The SDK's safe default environment (PATH, HOME, …), not the caller's keys, plus what the config gives.
      env: { ...getDefaultEnvironment(), ...spec.env },
      ...(spec.cwd !== undefined ? { cwd: spec.cwd } : {}),
      stderr: 'pipe',
    });
    const stderr = transport.stderr;
    if (stderr !== null) {
      const stderrPath = this.#options.stderrPath;
      if (stderrPath !== undefined) {
        this.#stderr ??= createWriteStream(stderrPath, { flags: 'a' });
        stderr.pipe(this.#stderr, { end: false });
      } else (stderr as unknown as NodeJS.ReadableStream).resume();
    }
    return transport;
  }

  /** Streamable HTTP first; a server that only speaks the older SSE transport gets that. */
  async #connectHttp(client: Client, spec: Extract<McpServerSpec, { url: string }>): Promise<void> {
    const url = new URL(spec.url);
    const requestInit = spec.headers === undefined ? {} : { requestInit: { headers: spec.headers } };
    const { StreamableHTTPClientTransport } = await import(
      '@modelcontextprotocol/sdk/client/streamableHttp.js'
    );
    try {
      await client.connect(new StreamableHTTPClientTransport(url, requestInit));
    } catch {
      const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
      await client.connect(new SSEClientTransport(url, requestInit));
    }
  }

  async #forget(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    await client?.close().catch(() => undefined);
  }
}

function toContent(part: Record<string, unknown>): McpContent {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: String(part.text ?? '') };
    case 'image':
    case 'audio':
      return { type: part.type, mimeType: String(part.mimeType ?? ''), data: String(part.data ?? '') };
    case 'resource': {
      const resource = (part.resource ?? {}) as Record<string, unknown>;
      const content: McpContent = { type: 'resource', uri: String(resource.uri ?? '') };
      if (typeof resource.mimeType === 'string') content.mimeType = resource.mimeType;
      if (typeof resource.text === 'string') content.text = resource.text;
      return content;
    }
    case 'resource_link': {
      const link: McpContent = { type: 'resource_link', uri: String(part.uri ?? '') };
      if (typeof part.name === 'string') link.name = part.name;
      if (typeof part.mimeType === 'string') link.mimeType = part.mimeType;
      return link;
    }
    default:
      return { type: 'text', text: JSON.stringify(part) };
  }
}

function isConnectionLoss(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /closed|not connected|EPIPE|ECONNRESET|ECONNREFUSED|-32000/i.test(message);
}
