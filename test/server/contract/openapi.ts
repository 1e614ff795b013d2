// The sandbox's contract: openapi.json, compiled once into request and response validators.
// Both sides of the wire are checked against the same document so neither the client nor this server
// can drift from it without a test noticing.
import { readFileSync } from "node:fs";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { operations } from "./openapi-types.js";

/**
 * Every operation openapi.json describes, including hand-written ones (`x-reduck-handwritten`, such
 * as POST /run) that the generated `OperationId` of src/generated/operations.ts leaves out.
 */
export type DescribedOperationId = keyof operations;

// ajv-formats is CommonJS: depending on the loader its default import is the plugin or a namespace holding it.
const addFormats: typeof addFormatsModule.default = typeof addFormatsModule === "function" ? addFormatsModule : addFormatsModule.default;

type HttpMethod = "get" | "put" | "post" | "delete" | "patch";

interface JsonSchema {
  [keyword: string]: unknown;
}

interface ParameterObject {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema: JsonSchema;
}

interface OperationObject {
  operationId: string;
  "x-reduck-handwritten"?: boolean;
  security?: Array<Record<string, string[]>>;
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}

interface OpenApiDocument {
  paths: Record<string, Partial<Record<HttpMethod, OperationObject>>>;
}

/** One operation of openapi.json, with everything the pipeline needs to route, authenticate and validate it. */
export interface OperationSpec {
  operationId: DescribedOperationId;
  method: HttpMethod;
  /** Path template as written in openapi.json, e.g. `/api/runs/{runId}`. */
  path: string;
  /** The bearer scope the operation asks for, or null when it needs no credential at all (`security: []`). */
  scope: string | null;
  /** Status codes the operation declares; anything else must never be sent. */
  statuses: ReadonlySet<number>;
  pathParams: ParameterObject[];
  queryParams: ParameterObject[];
  /** Media types the request body may come in (empty: no body). */
  bodyTypes: string[];
  /** Hand-written in the client (POST /run): implemented outside the generated operation table. */
  handwritten: boolean;
}

/** Field name (e.g. `slug`, `cookies.0.domain`) -> messages, the shape of ErrorResponse.variables. */
export type FieldErrors = Record<string, string[]>;

export type RequestPart = "path" | "query" | "body";

const DOCUMENT_ID = "https://reduck.ai/api/openapi.json";

// Resolved relative to this file, so it works from vitest, tsx and any working directory. A copy of
// the repository's openapi.json, carried here (npm run generate writes it; its --check fails on a stale one).
const document = JSON.parse(readFileSync(new URL("./openapi.json", import.meta.url), "utf8")) as OpenApiDocument;

function newAjv(coerceTypes: boolean): Ajv2020 {
  // strict: false because openapi.json carries OpenAPI-only keywords (example, x-*) inside schemas.
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes });
  addFormats(ajv);
  // Register the whole document so the `#/components/schemas/...` refs inside it resolve.
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  return ajv;
}

// Query strings only carry strings: the path and query are coerced ("20" to 20, "true" to true).
const requestAjv = newAjv(true);
// JSON bodies and responses already carry their types: no coercion. (Coercing a body would also
// rewrite it in place while trying each branch of an anyOf: a `null` meant to remove a secret
// became "" when checked against the string branch.)
const responseAjv = newAjv(false);

function pointer(...segments: string[]): string {
  return "#/" + segments.map((s) => s.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
}

function objectSchema(params: ParameterObject[]): JsonSchema {
  return {
    type: "object",
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
    required: params.filter((p) => p.required).map((p) => p.name),
  };
}

/**
 * An operation's validators, each compiled on first use: compiling every schema of the document
 * took most of the sandbox's start-up (over half a second here), and a run meets only a few of them.
 */
interface CompiledOperation {
  spec: OperationSpec;
  validatePath: () => ValidateFunction;
  validateQuery: () => ValidateFunction;
  validateBody: () => ValidateFunction | null;
  validateResponse: Map<number, () => ValidateFunction | null>;
}

/** `make()` once, on the first call; its value ever after. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

const compiled = new Map<string, CompiledOperation>();

for (const [path, item] of Object.entries(document.paths)) {
  for (const method of ["get", "put", "post", "delete", "patch"] as const) {
    const op = item[method];
    if (!op) continue;
    const parameters = op.parameters ?? [];
    const bearer = (op.security ?? []).find((s) => "bearerAuth" in s);
    const spec: OperationSpec = {
      operationId: op.operationId as DescribedOperationId,
      method,
      path,
      scope: bearer?.bearerAuth?.[0] ?? null,
      statuses: new Set(Object.keys(op.responses).map(Number)),
      pathParams: parameters.filter((p) => p.in === "path"),
      queryParams: parameters.filter((p) => p.in === "query"),
      bodyTypes: Object.keys(op.requestBody?.content ?? {}),
      handwritten: op["x-reduck-handwritten"] === true,
    };
    const validateResponse = new Map<number, () => ValidateFunction | null>();
    for (const [status, response] of Object.entries(op.responses)) {
      validateResponse.set(
        Number(status),
        once(() =>
          response.content?.["application/json"]
            ? responseAjv.compile({
                $ref: DOCUMENT_ID + pointer("paths", path, method, "responses", status, "content", "application/json", "schema"),
              })
            : null,
        ),
      );
    }
    const hasJsonBody = Boolean(op.requestBody?.content["application/json"]);
    compiled.set(op.operationId, {
      spec,
      validatePath: once(() => requestAjv.compile(objectSchema(spec.pathParams))),
      validateQuery: once(() => requestAjv.compile(objectSchema(spec.queryParams))),
      validateBody: once(() =>
        hasJsonBody
          ? responseAjv.compile({
              $ref: DOCUMENT_ID + pointer("paths", path, method, "requestBody", "content", "application/json", "schema"),
            })
          : null,
      ),
      validateResponse,
    });
  }
}

function lookup(operationId: string): CompiledOperation {
  const op = compiled.get(operationId);
  if (!op) throw new Error(`openapi.json has no operation ${operationId}`);
  return op;
}

/** Every operation openapi.json describes, in document order. */
export function operationSpecs(): OperationSpec[] {
  return [...compiled.values()].map((c) => c.spec);
}

export function operationSpec(operationId: DescribedOperationId): OperationSpec {
  return lookup(operationId).spec;
}

/** `/cookies/0/domain` + missing `path` -> `cookies.0.path`; the root becomes `body`. */
function fieldName(error: ErrorObject, root: string): string {
  const segments = error.instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (error.keyword === "required") segments.push(String((error.params as { missingProperty: string }).missingProperty));
  return segments.length ? segments.join(".") : root;
}

/** A readable message for one ajv error (`is required`, `must be a UUID`, `must be one of ...`). */
export function messageOf(error: ErrorObject): string {
  if (error.keyword === "required") return "is required";
  if (error.keyword === "format") {
    const format = (error.params as { format: string }).format;
    return format === "uuid" ? "must be a UUID" : `must be a valid ${format}`;
  }
  if (error.keyword === "enum") {
    return `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  return error.message ?? `fails ${error.keyword}`;
}

function toFieldErrors(errors: ErrorObject[] | null | undefined, root: string): FieldErrors {
  const out: FieldErrors = {};
  const list = errors ?? [];
  // openapi.json spells uuids as format + an equivalent pattern: report the readable one only.
  const formatFailed = new Set(list.filter((e) => e.keyword === "format").map((e) => e.instancePath));
  for (const error of list) {
    // anyOf/oneOf add a summary error on top of the branch errors; the branches say more.
    if (error.keyword === "anyOf" || error.keyword === "oneOf") continue;
    if (error.keyword === "pattern" && formatFailed.has(error.instancePath)) continue;
    const field = fieldName(error, root);
    const message = messageOf(error);
    (out[field] ??= []).includes(message) || out[field].push(message);
  }
  return out;
}

/**
 * Validates (and coerces, in place) one part of a request. Returns the problems by field, or null when valid.
 *
 * @example
 * const query = { pageSize: "20" };
 * validateRequestPart("listRuns", "query", query); // null, and query.pageSize is now 20
 */
export function validateRequestPart(operationId: DescribedOperationId, part: RequestPart, value: unknown): FieldErrors | null {
  const op = lookup(operationId);
  const validate = part === "path" ? op.validatePath() : part === "query" ? op.validateQuery() : op.validateBody();
  if (!validate) return null;
  if (validate(value)) return null;
  const errors = toFieldErrors(validate.errors, part === "body" ? "body" : part);
  return Object.keys(errors).length ? errors : { [part]: ["is invalid"] };
}

/**
 * Checks a response this server is about to send against what openapi.json declares for the
 * operation and status. Returns a description of the mismatch, or null when the response conforms.
 * A 204 (or any status declared without content) must have no body.
 *
 * @example
 * validateResponse("getPing", 200, { message: "pong" }); // null
 * validateResponse("getPing", 200, { message: 1 });      // "getPing 200: /message must be equal to constant"
 * validateResponse("getRun", 400, { error: "x" });       // "getRun does not declare status 400"
 */
export function validateResponse(operationId: DescribedOperationId, status: number, body: unknown): string | null {
  const op = lookup(operationId);
  if (!op.spec.statuses.has(status)) return `${operationId} does not declare status ${status}`;
  const validate = op.validateResponse.get(status)?.();
  if (validate === null || validate === undefined) {
    return body === undefined ? null : `${operationId} ${status} declares no body, but one was produced`;
  }
  if (body === undefined) return `${operationId} ${status} declares a JSON body, but none was produced`;
  if (validate(body)) return null;
  const details = (validate.errors ?? [])
    .slice(0, 5)
    .map(
      (e) =>
        `${e.instancePath || "/"} ${e.message ?? e.keyword}${e.keyword === "additionalProperties" ? ` (${String((e.params as { additionalProperty: string }).additionalProperty)})` : ""}`,
    )
    .join("; ");
  return `${operationId} ${status}: ${details}`;
}
