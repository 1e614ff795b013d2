/**
 * The MCP SDK and zod, as `reduck mcp` uses them: built into a file of their own
 * (dist/cli/mcp-vendor.cjs) that only `reduck mcp` loads. One file, so the SDK and our tool
 * schemas share one zod. Every module src/mcp imports from the SDK is here (the build sends
 * those imports to this file: build/bundle-imports.ts), under names that do not clash.
 */
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
export { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
export { toJsonSchemaCompat } from "@modelcontextprotocol/sdk/server/zod-json-schema-compat.js";
export { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
export { z } from "zod";
