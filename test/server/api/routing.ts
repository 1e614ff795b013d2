// The routing of the sandbox's API: one msw handler per operation of openapi.json, each built from the
// implementations in handlers/ and the same steps for every request:
// route -> authenticate -> validate request -> implementation -> validate own response.
// POST /run (runScript, hand-written) has its own handler in run/handler.ts: it reads its body
// itself (limits, streamed multipart) and validates its answers against openapi.json the same way.
import { http, HttpResponse, type RequestHandler } from "msw";
import { authenticate, withChallenge } from "./auth.js";
import { ApiError, invalid } from "./errors.js";
import { nestingProblem } from "../contract/nesting.js";
import { accountHandlers } from "./handlers/account.js";
import { appHandlers } from "./handlers/apps.js";
import { appImageHandlers } from "./handlers/app-images.js";
import { appFileHandlers, appUploadHandler } from "./handlers/app-uploads.js";
import { connectorHandlers } from "./handlers/connectors.js";
import { metaHandlers } from "./handlers/meta.js";
import { protectedResourceHandlers } from "./protected-resource.js";
import { readmeHandlers } from "./handlers/readmes.js";
import { runHandlers } from "./handlers/runs.js";
import { scriptHandlers } from "./handlers/scripts.js";
import { transferHandlers } from "./handlers/transfer.js";
import type { HandwrittenImplementations, Implementations, OperationContext, Reply } from "./handlers/types.js";
import { versionHandlers } from "./handlers/versions.js";
import { downloadHandler } from "../runtime/downloads.js";
import { batchHandlers } from "./run/batches.js";
import { runHandler } from "./run/handler.js";
import { logRequest, requestLogHandler } from "./request-log.js";
import { API_AUDIENCE, MCP_AUDIENCE } from "../store/records.js";
import { screenshotHandler } from "../runtime/screenshots.js";
import { operationSpecs, validateRequestPart, validateResponse, type DescribedOperationId, type FieldErrors, type OperationSpec } from "../contract/openapi.js";
import type { SandboxStore } from "../store/store.js";

// Typed as Implementations: leaving a generated operation out is a compile error. The hand-written
// runScript (POST /run) is served by runHandler instead (see HANDWRITTEN_HANDLERS).
const implementations: Implementations & HandwrittenImplementations = {
  ...accountHandlers,
  ...appHandlers,
  ...appImageHandlers,
  ...connectorHandlers,
  ...metaHandlers,
  ...readmeHandlers,
  ...runHandlers,
  ...scriptHandlers,
  ...transferHandlers,
  ...versionHandlers,
  // GET /batches/{batchId}: hand-written in the client (it polls), served through the pipeline here.
  ...batchHandlers,
};

/** Hand-written operations and the handlers that serve them outside the generated pipeline. */
const HANDWRITTEN_HANDLERS: Record<string, (store: SandboxStore) => RequestHandler> = {
  runScript: runHandler,
};

/**
 * Operations whose descriptions let callers without credentials in, with a reduced view: the
 * official catalogue, and public scripts, versions and host READMEs.
 */
export const ANONYMOUS_OPERATIONS: ReadonlySet<DescribedOperationId> = new Set<DescribedOperationId>([
  "listAllScripts",
  "listScripts",
  "getScript",
  "listScriptVersions",
  "getScriptVersion",
  "getHostReadme",
  // With catalogueOnly=true: the public catalogue of app images.
  "listAllAppImages",
]);

/** `/api/runs/{runId}` -> `* /api/runs/:runId` (without the space): any origin, msw parameter syntax. */
export function mswPath(template: string): string {
  return "*" + template.replace(/\{([^}]+)\}/g, ":$1");
}

/**
 * Route order: at the first segment where two templates differ, a literal beats a parameter, so
 * `/{handle}/{host}/readme` is tried before `/{handle}/{host}/{slug}` (msw takes the first match).
 */
export function compareRoutes(a: string, b: string): number {
  const as = a.split("/");
  const bs = b.split("/");
  for (const [i, aPart] of as.entries()) {
    const bPart = bs[i];
    if (bPart === undefined) break;
    const aParam = aPart.startsWith("{");
    const bParam = bPart.startsWith("{");
    if (aParam !== bParam) return aParam ? 1 : -1;
    if (!aParam && aPart !== bPart) return aPart < bPart ? -1 : 1;
  }
  return as.length - bs.length;
}

function json(status: number, body: unknown): Response {
  return new HttpResponse(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/** Turns every way a request can fail validation into what this operation is allowed to answer. */
function checkRequest(spec: OperationSpec, request: Request, params: Record<string, unknown>) {
  const path: Record<string, string> = {};
  for (const p of spec.pathParams) path[p.name] = String(params[p.name] ?? "");
  const pathErrors = validateRequestPart(spec.operationId, "path", path);
  if (pathErrors) {
    // Operations without a declared 400 (getRun, getScript...) cannot call a malformed id invalid:
    // nothing can exist at such an address, so it is simply not found.
    if (spec.statuses.has(400)) throw invalid(pathErrors);
    throw new ApiError(404, `Not found: ${describe(pathErrors)}`);
  }

  const url = new URL(request.url);
  const query: Record<string, unknown> = {};
  for (const p of spec.queryParams) {
    const value = url.searchParams.get(p.name);
    if (value !== null) query[p.name] = value;
  }
  const queryErrors = validateRequestPart(spec.operationId, "query", query);
  if (queryErrors) {
    if (spec.statuses.has(400)) throw invalid(queryErrors);
    // No operation with query parameters declares a 400, so a bad value cannot be refused: page
    // numbers are clamped into range (pageSize=0 -> 1, pageSize=500 -> 100) and anything else
    // invalid is ignored, as if it had not been sent.
    sanitizeQuery(spec, query, queryErrors);
  }
  return { path, query };
}

function sanitizeQuery(spec: OperationSpec, query: Record<string, unknown>, errors: FieldErrors): void {
  for (const field of Object.keys(errors)) {
    const name = field.split(".")[0] ?? field; // "pageSize" from "pageSize" or "filter.x"
    const schema = spec.queryParams.find((p) => p.name === name)?.schema;
    const value = query[name];
    if (schema?.type === "integer" && typeof value === "number" && Number.isInteger(value)) {
      const min = typeof schema.minimum === "number" ? schema.minimum : -Infinity;
      const max = typeof schema.maximum === "number" ? schema.maximum : Infinity;
      query[name] = Math.min(max, Math.max(min, value));
    } else {
      delete query[name];
    }
  }
}

function describe(errors: FieldErrors): string {
  return Object.entries(errors)
    .map(([field, messages]) => `${field} ${messages.join(", ")}`)
    .join("; ");
}

async function readBody(spec: OperationSpec, request: Request): Promise<unknown> {
  if (!spec.bodyTypes.length) return undefined;
  const contentType = request.headers.get("content-type") ?? "";
  // Multipart (file bytes) is the implementation's to stream; only JSON is parsed and checked here.
  if (/^multipart\/form-data\b/i.test(contentType) && spec.bodyTypes.includes("multipart/form-data")) return undefined;
  const text = await request.text();
  if (!text.trim()) throw invalid({ body: ["is required: send a JSON object"] });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw invalid({ body: [`is not valid JSON (${(error as Error).message})`] });
  }
  // Before anything recursive (the validator, a stored schema, a listing) touches it.
  const deep = nestingProblem(body);
  if (deep) throw invalid({ [deep.field]: [deep.message] });
  const errors = validateRequestPart(spec.operationId, "body", body);
  if (errors) throw invalid(errors);
  return body;
}

type AnyReply = { status: number; body: unknown };

async function execute(spec: OperationSpec, store: SandboxStore, request: Request, params: Record<string, unknown>): Promise<AnyReply> {
  const caller = spec.scope
    ? await authenticate(request, store, {
        scope: spec.scope,
        anonymous: ANONYMOUS_OPERATIONS.has(spec.operationId),
        // Outside /api is the run host (GET /batches/…), which is also the MCP host: as for POST /run,
        // tokens issued for either resource are accepted there.
        ...(spec.path.startsWith("/api/") ? {} : { audiences: [API_AUDIENCE, MCP_AUDIENCE] }),
      })
    : null;
  const { path, query } = checkRequest(spec, request, params);
  const body = await readBody(spec, request);
  // The union of all operations' context types is too wide to call through directly; validation
  // above is what guarantees each implementation gets the shapes its type promises.
  const implementation = implementations[spec.operationId] as unknown as (
    context: OperationContext<DescribedOperationId>,
  ) => Reply<DescribedOperationId> | Promise<Reply<DescribedOperationId>>;
  return implementation({ store, caller, path, query, body, request } as unknown as OperationContext<DescribedOperationId>);
}

/** Answers one request for one operation; never throws. */
async function respond(spec: OperationSpec, store: SandboxStore, request: Request, params: Record<string, unknown>): Promise<Response> {
  let reply: AnyReply;
  try {
    reply = await execute(spec, store, request, params);
  } catch (error) {
    if (!(error instanceof ApiError)) {
      console.error(`sandbox: ${spec.operationId} failed`, error);
      return json(500, { error: `sandbox failed in ${spec.operationId}: ${(error as Error)?.message ?? String(error)}` });
    }
    reply = { status: error.status, body: error.variables ? { error: error.message, variables: error.variables } : { error: error.message } };
  }
  const mismatch = validateResponse(spec.operationId, reply.status, reply.body);
  if (mismatch) {
    const message = `sandbox answered outside openapi.json: ${mismatch}`;
    console.error(message);
    return json(500, { error: message });
  }
  return reply.body === undefined ? new HttpResponse(null, { status: reply.status }) : json(reply.status, reply.body);
}

/**
 * The sandbox's API: one msw handler per operation of openapi.json, answering any origin, over
 * the given store. Use with `setupServer` in-process or `startHttpServer` over real HTTP. POST /run
 * reads named files from the store's `desktopDir` (see StoreOptions) and runs script bodies against
 * a simulated page.
 *
 * @example
 * const store = createStore();
 * const server = setupServer(...createHandlers(store));
 * server.listen({ onUnhandledRequest: "error" });
 */
export function createHandlers(store: SandboxStore): RequestHandler[] {
  const implemented = operationSpecs().filter((s) => s.operationId in implementations);
  const described = new Set<string>(operationSpecs().map((s) => s.operationId));
  // A hand-written operation without an implementation yet has no route; any other gap is a bug.
  const missing = operationSpecs()
    .filter((s) => !(s.operationId in implementations) && !(s.handwritten && s.operationId in HANDWRITTEN_HANDLERS))
    .map((s) => s.operationId);
  const extra = Object.keys(implementations).filter((id) => !described.has(id));
  if (missing.length || extra.length) {
    // The compile-time check covers src/generated; this one covers an openapi.json edited since.
    throw new Error(`sandbox out of step with openapi.json: missing ${missing.join(", ") || "none"}; unknown ${extra.join(", ") || "none"}`);
  }
  const generated = implemented
    .sort((a, b) => compareRoutes(a.path, b.path))
    .map((spec) =>
      http[spec.method](mswPath(spec.path), async ({ request, params }) => {
        logRequest(store, request);
        return withChallenge(request, await respond(spec, store, request, params as Record<string, unknown>));
      }),
    );
  const handwritten = operationSpecs().flatMap((s) => {
    const handler = s.handwritten ? HANDWRITTEN_HANDLERS[s.operationId] : undefined;
    return handler ? [handler(store)] : [];
  });
  // Not an API operation: where managed browsers' downloads are fetched from (see runtime/downloads.ts).
  return [
    // The request log (tests count POST /run against polls); requests are logged where answered.
    requestLogHandler(store),
    ...protectedResourceHandlers(store),
    ...generated,
    ...handwritten,
    downloadHandler(store),
    screenshotHandler(store),
    // Not API operations either: a release's presigned uploads, and the files of releases and apps.
    appUploadHandler(store),
    ...appFileHandlers(store),
  ];
}
