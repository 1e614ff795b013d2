/**
 * The agent tool's input and output schemas (zod, handed in at start-up), by family: runs
 * (run-schemas.ts), scripts and their versions (script-schemas.ts), the account's devices and
 * hosts (account-schemas.ts), all built from the same pieces (schema-parts.ts).
 */
import type { z as Zod } from "zod";
import { accountSchemas } from "./account-schemas.js";
import { runSchemas } from "./run-schemas.js";
import { schemaParts } from "./schema-parts.js";
import { scriptSchemas } from "./script-schemas.js";

/**
 * The tools' input and output schemas, built from a zod handed in at start-up: importing zod
 * (and the MCP SDK) at the top would slow every CLI command's start-up, not just `reduck mcp`'s.
 */
export function toolSchemas(z: typeof Zod) {
  const parts = schemaParts(z);
  return { ...runSchemas(z, parts), ...scriptSchemas(z, parts), ...accountSchemas(z, parts) };
}

export type Schemas = ReturnType<typeof toolSchemas>;
type InputNames = { [K in keyof Schemas]: K extends `${string}Input` | "versionTarget" ? K : never }[keyof Schemas];
export type Input<K extends InputNames> = Zod.infer<Schemas[K]>;
export type ScriptRefInput = Zod.infer<ReturnType<Schemas["scriptRef"]>>;
