/**
 * read_script: what a script takes and returns (inputs, which are files, login, side effects),
 * and its code when asked.
 */
import type { z as Zod } from "zod";
import type { SchemaParts } from "../common/schema-parts.js";
import { fileInputs as fileInputsOf } from "../../core/words/arguments.js";
import { jsonSchemaOf } from "../../core/json.js";
import { getScript, getScriptVersion } from "../../generated/operations.js";
import { answer, failWith, type ToolContext, type ToolResult } from "../common/answers.js";
import { boundJson, cutText, shownText } from "../common/bounded.js";
import { DOCUMENT_CHARS, MESSAGE_CHARS, SCHEMA_CHARS } from "../common/limits.js";
import { addressOf, scriptCallFailed, scriptPath, unknownScript, unknownVersionHint } from "../common/naming.js";
import { withoutExtensions } from "../common/schema-clean.js";
import { READ, type Tool } from "../common/tool.js";

/** read_script's own schemas. */
function schemas(z: typeof Zod, { closed, open, naming }: SchemaParts) {
  const readScriptInput = closed({
    ...naming(),
    version_id: z.string().optional().describe("Read this version instead of the current one (a draft too)."),
    code: z.boolean().optional().describe("true: include the version's code (content), to change it in a draft."),
  });

  const readScriptOutput = open({
    address: z.string(),
    name: z.string().optional(),
    description: z.string().optional(),
    visibility: z.string().optional(),
    archived: z.boolean().optional(),
    versionId: z.string().nullable().optional(),
    loggedIn: z.boolean().optional(),
    sideEffects: z.string().optional(),
    input: z.record(z.unknown()).describe('JSON Schema of script.args (files included, as format "file").'),
    output: z.unknown().optional().describe("JSON Schema of what the script returns."),
    fileInputs: z.array(open({ name: z.string(), required: z.boolean() })),
    howToPassFiles: z.string().optional(),
    content: z.string().optional().describe("The version's code, with code: true (when the service shows it)."),
    codeWithheld: z.string().optional().describe("With code: true, why there is no content: the service withheld the code."),
  });

  return { readScriptInput, readScriptOutput };
}

type Input = Zod.infer<ReturnType<typeof schemas>["readScriptInput"]>;

async function handle(ctx: ToolContext, input: Input): Promise<ToolResult> {
  const named = await scriptPath(ctx, input);
  if ("content" in named) return named;
  const { path, ownImplied } = named;
  let version: {
    input_schema?: unknown;
    output_schema?: unknown;
    logged_in?: boolean;
    side_effects?: string;
    id?: string;
    content?: string;
  } | null;
  let meta: Record<string, unknown> = {};
  if (input.version_id) {
    const r = await getScriptVersion({ client: ctx.client, path: { ...path, versionId: input.version_id } });
    if (r.error) return scriptCallFailed(ctx, path, r.error, { ownImplied, versionHint: () => unknownVersionHint(ctx, path, input.version_id!) });
    version = r.data;
  } else {
    const r = await getScript({ client: ctx.client, path });
    if (r.error?.status === 404) return unknownScript(ctx, path, r.error, ownImplied);
    if (r.error) return failWith(r.error);
    version = r.data.current_version as typeof version;
    meta = {
      name: shownText(r.data.name, 200),
      description: shownText(r.data.description, MESSAGE_CHARS),
      visibility: r.data.visibility,
      archived: r.data.archived_at !== null,
    };
    if (input.code && version?.id && version.content === undefined) {
      // The script's answer may carry its current version as a summary: the code is read from the version.
      const full = await getScriptVersion({ client: ctx.client, path: { ...path, versionId: version.id } });
      if (!full.error) version = full.data;
    }
  }
  const schema = (value: unknown) => boundJson(withoutExtensions(value ?? {}), SCHEMA_CHARS).value;
  const input_schema = jsonSchemaOf(schema(version?.input_schema)) ?? {};
  const required = Array.isArray(input_schema.required) ? input_schema.required : [];
  const fileInputs = fileInputsOf(input_schema).map((name) => ({ name, required: required.includes(name) }));
  return answer({
    address: addressOf(path),
    ...meta,
    versionId: version?.id ?? null,
    loggedIn: version?.logged_in,
    sideEffects: version?.side_effects,
    input: input_schema,
    output: version?.output_schema === undefined ? undefined : schema(version.output_schema),
    fileInputs,
    howToPassFiles: fileInputs.length ? 'Put the file in the reduck folder on the desktop and pass files: { <input>: { relativePath: "<name>" } }.' : undefined,
    ...(input.code && typeof version?.content === "string" ? { content: cutText(version.content, DOCUMENT_CHARS) } : {}),
    // As the CLI says it: the service withholds the code of official catalogue scripts from non-members.
    ...(input.code && typeof version?.content !== "string"
      ? {
          codeWithheld:
            "The service withheld this version's code: the code of an official catalogue script is shown only to members of the project that owns it.",
        }
      : {}),
  });
}

export const readScriptTool: Tool = {
  name: "read_script",
  spec: ({ z, parts }) => {
    const own = schemas(z, parts);
    return {
      title: "Read a script's contract",
      description:
        'Returns what a script takes (input schema, and which inputs are files), what it returns, whether it needs a login and whether it acts on the site; with code: true, its code. Name it by address ("reduck/mail.google.com/send_email") or by host, slug and handle; version_id reads that version. Changes nothing.',
      input: own.readScriptInput,
      output: own.readScriptOutput,
      annotations: READ,
      usage: 'read_script { address: "reduck/mail.google.com/send_email" }',
    };
  },
  run: handle,
};
