/**
 * The library against the real service's description: a mock server made from that description
 * alone (its facts, as test/openapi/reference-snapshot.json keeps them: agreement.test.ts holds the
 * snapshot to the real file where it is present) answers every one of its operations under /api.
 * For each, the generated function is called with arguments sampled from the real schemas; the
 * mock checks that the request reached that operation (method and path), carried the credential,
 * and that its path, query and body pass the real schemas, then answers with a sample of the real
 * success response, which the function must hand back as its data (with `hasNextPage` for pages).
 */
import { readFileSync } from "node:fs";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as library from "../../src/index.js";
import { operationTable } from "../../src/generated/operations.js";
import { sampleOf } from "../support/schema-sample.js";

const addFormats: typeof addFormatsModule.default = typeof addFormatsModule === "function" ? addFormatsModule : addFormatsModule.default;
const facts = JSON.parse(readFileSync(new URL("./reference-snapshot.json", import.meta.url), "utf8")).facts;
const BASE = facts.servers[0].url as string;
const METHODS = ["get", "put", "post", "delete", "patch"] as const;

interface Parameter {
  name: string;
  in: "path" | "query";
  required?: boolean;
  schema: Record<string, any>;
}

interface Operation {
  operationId: string;
  method: (typeof METHODS)[number];
  template: string;
  parameters: Parameter[];
  body?: Record<string, any>;
  success: { status: number; schema?: Record<string, any> };
  needsCredential: boolean;
}

const operations: Operation[] = Object.entries<any>(facts.paths).flatMap(([template, item]) =>
  METHODS.filter((m) => item[m]).map((method) => {
    const op = item[method];
    const status = Object.keys(op.responses)
      .map(Number)
      .find((s) => s >= 200 && s < 300)!;
    return {
      operationId: op.operationId,
      method,
      template,
      parameters: op.parameters ?? [],
      body: op.requestBody?.content?.["application/json"]?.schema,
      success: { status, schema: op.responses[String(status)].content?.["application/json"]?.schema },
      needsCredential: (op.security ?? []).length > 0,
    };
  }),
);

function ajv(coerceTypes: boolean): Ajv2020 {
  const instance = new Ajv2020({ strict: false, allErrors: true, coerceTypes });
  addFormats(instance);
  return instance;
}
const coercing = ajv(true);
const exact = ajv(false);
const compiled = new Map<string, ValidateFunction>();
function validator(key: string, schema: Record<string, any>, coerce: boolean): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) compiled.set(key, (validate = (coerce ? coercing : exact).compile(schema)));
  return validate;
}
const objectOf = (params: Parameter[]) => ({
  type: "object",
  properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
  required: params.filter((p) => p.required).map((p) => p.name),
});

/** The operation a request's method and path reach; a literal segment beats a parameter. */
function route(method: string, pathname: string): { op: Operation; path: Record<string, string> } | undefined {
  const segments = pathname.split("/");
  const matches = operations.flatMap((op) => {
    if (op.method !== method.toLowerCase()) return [];
    const parts = op.template.split("/");
    if (parts.length !== segments.length) return [];
    const path: Record<string, string> = {};
    for (const [i, part] of parts.entries()) {
      const m = /^\{(.+)\}$/.exec(part);
      if (m) path[m[1]!] = decodeURIComponent(segments[i]!);
      else if (part !== segments[i]) return [];
    }
    return [{ op, path, params: Object.keys(path).length }];
  });
  return matches.sort((a, b) => a.params - b.params)[0];
}

interface Seen {
  operationId: string | null;
  problems: string[];
  answer?: unknown;
}
let seen: Seen[] = [];

const server = setupServer(
  http.all("*", async ({ request }) => {
    const url = new URL(request.url);
    const found = route(request.method, url.pathname);
    const record: Seen = { operationId: found?.op.operationId ?? null, problems: [] };
    seen.push(record);
    if (!found) return HttpResponse.json({ error: "no such operation in the real description" }, { status: 404 });
    const { op, path } = found;
    if (op.needsCredential && !request.headers.get("x-api-key")) record.problems.push("no X-API-Key header");
    const checks: Array<[string, unknown, Record<string, any>, boolean]> = [
      ["path", path, objectOf(op.parameters.filter((p) => p.in === "path")), true],
      ["query", Object.fromEntries(url.searchParams), objectOf(op.parameters.filter((p) => p.in === "query")), true],
    ];
    const unknownQuery = [...url.searchParams.keys()].filter((k) => !op.parameters.some((p) => p.in === "query" && p.name === k));
    if (unknownQuery.length) record.problems.push(`query parameters the operation does not take: ${unknownQuery.join(", ")}`);
    if (op.body) {
      const text = await request.text();
      try {
        checks.push(["body", JSON.parse(text), op.body, false]);
      } catch {
        record.problems.push(`body is not JSON: ${text.slice(0, 80)}`);
      }
    }
    for (const [part, value, schema, coerce] of checks) {
      const validate = validator(`${op.operationId} ${part}`, schema, coerce);
      if (!validate(value)) record.problems.push(`${part}: ${exact.errorsText(validate.errors)}`);
    }
    if (!op.success.schema) return new HttpResponse(null, { status: op.success.status });
    record.answer = sampleOf(op.success.schema);
    return HttpResponse.json(record.answer as Record<string, unknown>, { status: op.success.status });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

describe("the library against the real description", () => {
  test("the real description has 55 operations under /api, and each is a generated function of the same method and path", () => {
    expect(operations).toHaveLength(55);
    const table = operationTable as Record<string, { method: string; path: string; paginated: boolean }>;
    const mismatched = operations.filter((op) => table[op.operationId]?.method !== op.method || table[op.operationId]?.path !== op.template);
    expect(mismatched.map((op) => op.operationId)).toEqual([]);
  });

  test("the sampled responses pass the real response schemas (the samples are sound)", () => {
    for (const op of operations.filter((o) => o.success.schema)) {
      const validate = validator(`${op.operationId} response`, op.success.schema!, false);
      expect(validate(sampleOf(op.success.schema)), `${op.operationId}: ${exact.errorsText(validate.errors)}`).toBe(true);
    }
  });

  test.each(operations.map((op) => [op.operationId, op] as const))("%s: the request passes the real schemas, the answer comes back as data", async (id, op) => {
    const client = library.createReduckClient({ apiKey: "rk_conformance", maxRetries: 0, baseUrl: BASE });
    const path = Object.fromEntries(op.parameters.filter((p) => p.in === "path").map((p) => [p.name, sampleOf(p.schema, p.name)]));
    const query = Object.fromEntries(op.parameters.filter((p) => p.in === "query").map((p) => [p.name, sampleOf(p.schema, p.name)]));
    const options: Record<string, unknown> = { client };
    if (Object.keys(path).length) options.path = path;
    if (Object.keys(query).length) options.query = query;
    if (op.body) options.body = sampleOf(op.body);
    seen = [];
    const fn = (library as unknown as Record<string, (o: unknown) => Promise<any>>)[id]!;
    const result = await fn(options);

    expect(seen.map((s) => s.operationId)).toEqual([id]);
    expect(seen[0]!.problems).toEqual([]);
    expect(result.error).toBeUndefined();
    expect(result.response.status).toBe(op.success.status);
    const answer = seen[0]!.answer as Record<string, unknown> | undefined;
    if (operationTable[id as keyof typeof operationTable].paginated) {
      expect(result.data).toEqual(answer!.data);
      expect(result.hasNextPage).toBe(answer!.hasNextPage);
      expect(result.totalCount).toBe(answer!.totalCount);
    } else {
      expect(result.data).toEqual(answer);
    }
  });
});
