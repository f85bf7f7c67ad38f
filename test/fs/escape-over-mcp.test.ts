import { useSandboxTransport } from './sandbox-fixture.js';

// The whole fs escape suite again, every call sent through `spine mcp-server` by an MCP client: what the fs
// tools refuse directly, they refuse over MCP.
useSandboxTransport('mcp');
await import('./escape.test.js');
