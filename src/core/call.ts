/**
 * What every generated function does: check the options, send through the client's
 * openapi-fetch instance, then turn whatever happened into `{ data, error, response }`.
 * Nothing here throws, whatever a JavaScript caller passes.
 */
import type { ReduckClient } from "../client.js";
import { clientInternals } from "../client.js";
import { operationTable } from "../generated/operations.js";
import { CredentialError, describeFailure, httpError, describeStatus, type ReduckError } from "./errors.js";
import { redactError } from "./redact.js";
import { TransportFailure } from "./transport.js";
import type { CallOptions, ListResult, OperationResult } from "./types.js";

interface RawOptions extends CallOptions {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export async function callOperation<T>(options: RawOptions, method: string, path: string): Promise<OperationResult<T>> {
  try {
    return await send<T>(options, method, path);
  } catch (err) {
    // Only openapi-fetch building the request can land here (a header it refuses, a query it
    // cannot serialise): the caller's input, not the network.
    const message = err instanceof Error ? err.message : String(err);
    return failure(invalid(`${operationName(method, path)}: the request could not be made (${message})`));
  }
}

async function send<T>(options: RawOptions, method: string, path: string): Promise<OperationResult<T>> {
  const problem = optionsProblem(options, method, path);
  if (problem) return failure(invalid(problem));
  const { client, path: pathParams, query, body, signal, headers } = options;
  const internals = clientInternals(client);
  let result: { data?: unknown; error?: unknown; response: Response };
  try {
    // parseAs "text": we parse success bodies ourselves so a 2xx with a broken body becomes
    // an error value instead of an exception. The caller's signal goes to the transport
    // directly: a signal carried by a Request can be lost after a GC (nodejs/undici#4068).
    result = (await client.api.request(method as "get", path as never, {
      params: { path: pathParams, query },
      body,
      headers,
      parseAs: "text",
      fetch: (request: Request) => internals.transport(request, signal),
    } as never)) as typeof result;
  } catch (err) {
    if (err instanceof TransportFailure) return failure(err.detail);
    // The auth middleware: an `oauthToken` function that failed, so nothing was sent.
    if (err instanceof CredentialError) return failure(describeFailure(err, `${client.baseUrl}${path}`).error);
    throw err;
  }
  const response = result.response;
  if (!response.ok) return failure(redactError(httpError(response, result.error ?? ""), internals.secrets()), response);
  const text = (result.data ?? "") as string;
  if (!text) return { data: undefined as T, error: undefined, response };
  try {
    return { data: JSON.parse(text) as T, error: undefined, response };
  } catch {
    const error = `${describeStatus(response)} but the body is not JSON`;
    return failure({ kind: "invalid_response", status: response.status, url: response.url, error }, response);
  }
}

export async function callListOperation<T>(options: RawOptions, method: string, path: string): Promise<ListResult<T>> {
  const result = await callOperation<{ data?: unknown; hasNextPage?: unknown; totalCount?: unknown }>(options, method, path);
  if (result.error) return { ...result, hasNextPage: false, totalCount: undefined };
  const page = result.data;
  if (!page || !Array.isArray(page.data) || typeof page.hasNextPage !== "boolean") {
    return {
      data: undefined,
      hasNextPage: false,
      totalCount: undefined,
      response: result.response,
      error: { kind: "invalid_response", status: result.response.status, error: "the server answered a list call without a page (data, hasNextPage)" },
    };
  }
  return {
    data: page.data as T[],
    hasNextPage: page.hasNextPage,
    totalCount: typeof page.totalCount === "number" ? page.totalCount : undefined,
    error: undefined,
    response: result.response,
  };
}

/** What is wrong with the options, in words that say how to fix it; undefined when nothing is. */
function optionsProblem(options: unknown, method: string, path: string): string | undefined {
  const name = operationName(method, path);
  if (!isObject(options)) return `${name} takes an options object: call ${name}({ client, ... }) with the client from createReduckClient()`;
  const { client, path: pathParams, query, body, signal, headers } = options as unknown as RawOptions;
  if (!isClient(client)) return `${name}: pass the client from createReduckClient() as \`client\``;
  for (const [slot, value] of [["path", pathParams], ["query", query], ["headers", headers]] as const) {
    if (value !== undefined && !isObject(value)) return `${name}: \`${slot}\` must be an object of named values`;
  }
  for (const param of path.match(/\{[^}]+\}/g) ?? []) {
    const key = param.slice(1, -1);
    const value = (pathParams as Record<string, unknown> | undefined)?.[key];
    if ((typeof value !== "string" || value === "") && typeof value !== "number") {
      return `${name}: path.${key} is missing: give path: { ${key}: "..." }`;
    }
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) return `${name}: \`signal\` must be an AbortSignal (from an AbortController)`;
  if (body !== undefined) {
    if (method === "get" || method === "head") return `${name} takes no body: remove \`body\` (parameters go in \`path\` or \`query\`)`;
    try {
      JSON.stringify(body);
    } catch (err) {
      return `${name}: \`body\` cannot be sent as JSON (${(err as Error).message})`;
    }
  }
  return undefined;
}

/** The function's name (`getMe`) for messages, found from its method and path. */
function operationName(method: string, path: string): string {
  for (const [id, op] of Object.entries(operationTable)) if (op.method === method && op.path === path) return id;
  return `${method.toUpperCase()} ${path}`;
}

function invalid(error: string): ReduckError {
  return { kind: "invalid_request", error };
}

function failure(error: ReduckError, response?: Response): { data: undefined; error: ReduckError; response: Response | undefined } {
  return { data: undefined, error, response };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isClient(client: unknown): client is ReduckClient {
  try {
    clientInternals(client as ReduckClient);
    return true;
  } catch {
    return false;
  }
}
