/**
 * openapi.json -> src/generated/
 *
 * Writes these files and nothing else writes there:
 * - schema.ts      the openapi-typescript types (paths, components, operations)
 * - operations.ts  one exported function per operationId, with TSDoc from the description
 * - operation-table.ts  every operation's method, path and paging, apart from operations.ts so that
 *                  core/call.ts (which operations.ts imports) can name an operation without a circle
 * - scopes.ts      the OAuth scopes each operation needs (its bearer security requirement), for scopesFor()
 *
 * `npm run generate -- --check` exits 1 when the committed files differ from what the
 * generator would write (the test suite runs the same check).
 */
import { readFile, writeFile, mkdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const specPath = path.join(root, "openapi.json");
const outDir = path.join(root, "src", "generated");

const HEADER = `// Written by \`npm run generate\` from openapi.json. Do not edit by hand.\n`;
const SANDBOX_TYPES_HEADER =
  "// Written by `npm run generate` from openapi.json (the sandbox's copy, beside this file). Do not edit by hand.\n" +
  "// A twin of the client's src/generated/schema.ts, on purpose: the sandbox takes nothing from the client.\n";
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"] as const;

interface Operation {
  operationId: string;
  method: string;
  path: string;
  summary?: string;
  description?: string;
  paginated: boolean;
}

type Json = Record<string, any>;

/** A list operation answers with a page: `{ data: T[], hasNextPage, totalCount? }`. */
function isPaginated(spec: Json, op: Json): boolean {
  const ok = op.responses?.["200"]?.content?.["application/json"]?.schema;
  const schema = ok?.$ref ? resolve(spec, ok.$ref) : ok;
  return Boolean(schema?.properties?.hasNextPage && schema?.properties?.data?.type === "array");
}

function resolve(spec: Json, ref: string): Json {
  return ref
    .replace(/^#\//, "")
    .split("/")
    .reduce((node: Json, key) => node[key], spec);
}

export function listOperations(spec: Json): Operation[] {
  const ops: Operation[] = [];
  for (const [p, item] of Object.entries<Json>(spec.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      // Operations marked x-reduck-handwritten (POST /run) get types, not a generated function.
      if (!op || op["x-reduck-handwritten"]) continue;
      ops.push({
        operationId: op.operationId,
        method,
        path: p,
        summary: op.summary,
        description: op.description,
        paginated: isPaginated(spec, op),
      });
    }
  }
  return ops;
}

function tsdoc(op: Operation): string {
  const lines = [op.summary, op.description && op.description !== op.summary ? op.description : undefined]
    .filter((s): s is string => Boolean(s))
    .join("\n\n")
    .replace(/\*\//g, "*\\/")
    .split("\n");
  lines.push("", `\`${op.method.toUpperCase()} ${op.path}\``);
  if (op.paginated) lines.push("", "Returns one page: the items as `data`, with `hasNextPage` and `totalCount`.");
  return ["/**", ...lines.map((l) => (l ? ` * ${l}` : " *")), " */"].join("\n");
}

function operationsSource(ops: Operation[]): string {
  const out = [
    HEADER,
    `import type { operations } from "./schema.js";`,
    `import { callOperation, callListOperation } from "../core/call.js";`,
    `import type { OperationOptions, OperationResult, ListResult, SuccessData, ItemOf } from "../core/types.js";`,
    ``,
    `export { operationTable, type OperationId } from "./operation-table.js";`,
    ``,
  ];
  for (const op of ops) {
    const O = `operations[${JSON.stringify(op.operationId)}]`;
    const call = op.paginated
      ? `export function ${op.operationId}(options: OperationOptions<${O}>): Promise<ListResult<ItemOf<${O}>>> {\n  return callListOperation(options, ${JSON.stringify(op.method)}, ${JSON.stringify(op.path)});\n}`
      : `export function ${op.operationId}(options: OperationOptions<${O}>): Promise<OperationResult<SuccessData<${O}>>> {\n  return callOperation(options, ${JSON.stringify(op.method)}, ${JSON.stringify(op.path)});\n}`;
    out.push(tsdoc(op), call, "");
  }
  return out.join("\n");
}

function operationTableSource(ops: Operation[]): string {
  const out = [HEADER];
  const table = ops
    .map((op) => `  ${op.operationId}: { method: ${JSON.stringify(op.method)}, path: ${JSON.stringify(op.path)}, paginated: ${op.paginated} },`)
    .join("\n");
  out.push(
    `/** Every operation of openapi.json: its HTTP method, path template and whether it answers with a page. */`,
    `export const operationTable = {\n${table}\n} as const;`,
    ``,
    `export type OperationId = keyof typeof operationTable;`,
    ``,
  );
  return out.join("\n");
}

/**
 * The bearer scopes of every operation, hand-written ones (POST /run) included: read from each
 * operation's `security` requirements, so an application asks for exactly what its calls need.
 */
export function operationScopes(spec: Json): Record<string, string[]> {
  const scopes: Record<string, string[]> = {};
  for (const item of Object.values<Json>(spec.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const requirements: Json[] = op.security ?? spec.security ?? [];
      scopes[op.operationId] = [...new Set(requirements.flatMap((r) => (r.bearerAuth as string[] | undefined) ?? []))];
    }
  }
  return scopes;
}

function scopesSource(scopes: Record<string, string[]>): string {
  const rows = Object.entries(scopes).map(([id, list]) => `  ${id}: ${JSON.stringify(list)},`);
  return [
    HEADER,
    `/** The OAuth scopes each operation needs, from openapi.json's security requirements. */`,
    `export const operationScopes: Record<string, readonly string[]> = {\n${rows.join("\n")}\n};`,
    ``,
  ].join("\n");
}

export async function generate(): Promise<Record<string, string>> {
  const spec = JSON.parse(await readFile(specPath, "utf8"));
  const ast = await openapiTS(spec, { alphabetize: false, emptyObjectsUnknown: true });
  return {
    "schema.ts": HEADER + "\n" + astToString(ast),
    "operations.ts": operationsSource(listOperations(spec)),
    "operation-table.ts": operationTableSource(listOperations(spec)),
    "scopes.ts": scopesSource(operationScopes(spec)),
  };
}

async function main() {
  const check = process.argv.includes("--check");
  const files = await generate();
  let stale = false;
  await mkdir(outDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(outDir, name);
    if (check) {
      const current = await readFile(file, "utf8").catch(() => "");
      if (current !== text) {
        stale = true;
        console.error(`src/generated/${name} is stale: run npm run generate`);
      }
    } else {
      await writeFile(file, text);
      console.log(`wrote src/generated/${name}`);
    }
  }
  // The sandbox (test/server, a package of its own) carries, in its contract/ folder, the same description and its types, so
  // that nothing it reads lies outside its folder once installed, and its types come from the
  // description, not from the client.
  const sandboxFiles: Record<string, string> = {
    "openapi.json": await readFile(specPath, "utf8"),
    "openapi-types.ts": files["schema.ts"]!.replace(HEADER, SANDBOX_TYPES_HEADER),
  };
  for (const [name, text] of Object.entries(sandboxFiles)) {
    const file = path.join(root, "test", "server", "contract", name);
    if (check) {
      if ((await readFile(file, "utf8").catch(() => "")) !== text) {
        stale = true;
        console.error(`test/server/contract/${name} is stale: run npm run generate`);
      }
    } else {
      await writeFile(file, text);
      console.log(`wrote test/server/contract/${name}`);
    }
  }
  if (stale) process.exit(1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
