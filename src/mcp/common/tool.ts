/**
 * What a tool of the agent tool is: its name (the hosted server's, so an agent's habits carry
 * over), what it shows a client (title, description, input and output schemas, MCP annotations,
 * a usage line for a call whose arguments do not fit) and its handler. Each tool is one file in
 * tools/, named for it; tool-list.ts lists them.
 *
 * The schemas are built when the server starts, from the zod it loads then (importing zod and the
 * MCP SDK at the top would slow every CLI command's start-up, not just `reduck mcp`'s): a tool's
 * `spec` is called with that zod, the shared schemas and what its description names.
 *
 * Input names follow the hosted tool's where it has one (`host`, `slug`, `handle`, `version_id`,
 * `relativePath`, `runId`, `batchId`, `fullOutput`, `waitForSeconds`, `deviceId`) and are
 * camelCase otherwise; a script is named by its `address` everywhere one is shown, and may be
 * given by `address` everywhere one is taken.
 *
 * Annotations: `readOnlyHint` for the tools that change nothing; `destructiveHint` for those that
 * remove or replace what was there (archive, delete, a patch or README that overwrites) and for
 * run_script (scripts act on real sites); `idempotentHint` where calling twice changes nothing
 * more; `openWorldHint` only for run_script, the one tool that reaches beyond the account.
 */
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z as Zod } from "zod";
import type { ToolContext, ToolResult } from "./answers.js";
import type { SchemaParts } from "./schema-parts.js";
import type { Schemas } from "./tool-schemas.js";
import type { CallExtra } from "./waiting.js";

/** What a tool's spec is built from at start-up. */
export interface ToolSetting {
  z: typeof Zod;
  parts: SchemaParts;
  /** The schemas several tools share. */
  s: Schemas;
  /** The service folder, named in run_script's description. */
  folder: string;
  /** How long a call waits on a run before answering with its handle. */
  holdSeconds: number;
}

/** What a client is shown of a tool. */
export interface ToolSpec {
  title: string;
  description: string;
  input: Zod.AnyZodObject;
  output?: Zod.AnyZodObject;
  annotations: ToolAnnotations;
  /** A call that fits, shown after a call whose arguments do not. */
  usage: string;
}

export interface Tool {
  name: string;
  spec(setting: ToolSetting): ToolSpec;
  /** The handler, called with arguments its input schema accepted. */
  run(tc: ToolContext, input: any, extra?: CallExtra): Promise<ToolResult>;
}

export const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Adds to the catalogue: nothing is lost, and a second call adds again (or is refused). */
export const ADD: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Replaces or removes what was there; the same call again changes nothing more. */
export const REPLACE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

/** How usage lines name a script of one's own. */
export const ADDRESS = 'address: "@me/example.com/get_title"';
