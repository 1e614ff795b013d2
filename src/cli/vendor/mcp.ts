/**
 * The MCP SDK and zod, as `reduck mcp` uses them: built into a file of their own
 * (dist/cli/mcp-vendor.cjs) that only `reduck mcp` loads. One file, so the SDK and our tool
 * schemas share one zod.
 */
export { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
export { z } from "zod";
