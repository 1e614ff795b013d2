/**
 * What every generated function does: check the options, build the request (the URL as
 * openapi-fetch would), send it through the client's transport, then turn whatever happened
 * into `{ data, error, response }`. Nothing here throws, whatever a JavaScript caller passes.
 *
 * The request is built here rather than by openapi-fetch's client, which makes a `Request` and
 * `Headers` for every call: loading Node's fetch classes costs a command-line start about 20 ms.
 * The `Response` in a result is made only when someone reads it.
 */
import { createFinalURL, createQuerySerializer, defaultPathSerializer } from "openapi-fetch";
import type { ReduckClient } from "./client.js";
import { clientInternals } from "./client.js";
import { operationTable } from "../generated/operation-table.js";
import { withResponse } from "./wire/answer.js";
import { settingsOf, settingsProblem, type CallSettingsOptions } from "./wire/call-settings.js";
import { nodeHttp } from "./builtins.js";
import { CredentialError, describeFailure, httpError, describeStatus, type ReduckError } from "./errors.js";
import { redactError } from "./redact.js";
import { TransportFailure, type Answer } from "./wire/transport.js";
import type { CallOptions, ListResult, OperationResult } from "./types.js";
import { isObject } from "./json.js";
import { pathIdsProblem } from "./path-ids.js";

interface RawOptions extends CallOptions {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

const querySerializer = createQuerySerializer();
const decoder = new TextDecoder();

/** A call's outcome before its result is shaped: the answer, when there was one. */
type Outcome<T> = { data: T; error: undefined; answer: Answer } | { data: undefined; error: ReduckError; answer?: Answer };

export async function callOperation<T>(options: RawOptions, method: string, path: string): Promise<OperationResult<T>> {
  const { data, error, answer } = await exchange<T>(options, method, path);
  return withResponse({ data, error }, answer) as OperationResult<T>;
}

export async function callListOperation<T>(options: RawOptions, method: string, path: string): Promise<ListResult<T>> {
  const outcome = await exchange<{ data?: unknown; hasNextPage?: unknown; totalCount?: unknown }>(options, method, path);
  if (outcome.error) return withResponse({ data: undefined, hasNextPage: false, totalCount: undefined, error: outcome.error }, outcome.answer) as ListResult<T>;
  const { data: page, answer } = outcome;
  if (!page || !Array.isArray(page.data) || typeof page.hasNextPage !== "boolean") {
    const error: ReduckError = { kind: "invalid_response", status: answer.status, error: "the server answered a list call without a page (data, hasNextPage)" };
    return withResponse({ data: undefined, hasNextPage: false, totalCount: undefined, error }, answer) as ListResult<T>;
  }
  const totalCount = typeof page.totalCount === "number" ? page.totalCount : undefined;
  return withResponse({ data: page.data as T[], hasNextPage: page.hasNextPage, totalCount, error: undefined }, answer) as ListResult<T>;
}

async function exchange<T>(options: RawOptions, method: string, path: string): Promise<Outcome<T>> {
  try {
    return await send<T>(options, method, path);
  } catch (err) {
    // Only building the request can land here (a header Node refuses, a query that cannot be
    // serialised): the caller's input, not the network.
    const message = err instanceof Error ? err.message : String(err);
    return failure(invalid(`${operationName(method, path)}: the request could not be made (${message})`));
  }
}

/**
 * The headers of a request, later ones winning whatever the case of their names; each checked
 * as Node will check it. Throws for a name or value that cannot be sent.
 */
export function mergeHeaders(...sets: Array<Record<string, string> | undefined>): Record<string, string> {
  const byName = new Map<string, [string, string]>();
  for (const set of sets) {
    for (const [name, value] of Object.entries(set ?? {})) {
      if (value === undefined || value === null) continue;
      nodeHttp().validateHeaderName(name);
      nodeHttp().validateHeaderValue(name, String(value));
      byName.set(name.toLowerCase(), [name, String(value)]);
    }
  }
  return Object.fromEntries(byName.values());
}

async function send<T>(options: RawOptions, method: string, path: string): Promise<Outcome<T>> {
  const problem = optionsProblem(options, method, path);
  if (problem) return failure(invalid(problem));
  const { client, path: pathParams, query, body, signal, headers } = options;
  // The one check of an id: here, where it becomes part of the URL (core/path-ids.ts).
  const badId = pathIdsProblem(pathParams);
  if (badId) return failure(badId);
  const internals = clientInternals(client);
  const url = createFinalURL(path, { baseUrl: client.baseUrl, params: { path: pathParams, query }, querySerializer, pathSerializer: defaultPathSerializer });
  const json = body === undefined ? undefined : JSON.stringify(body);
  // Checked before the credential is asked for: a header that cannot be sent is the caller's mistake.
  mergeHeaders(internals.headers, headers);
  let answer: Answer;
  try {
    const auth = await internals.authHeaders(client.baseUrl);
    const contentType = json === undefined ? undefined : { "Content-Type": "application/json" };
    const all = mergeHeaders(contentType, internals.headers, headers, auth);
    // The caller's signal goes to the transport directly: a signal carried by a Request can be
    // lost after a GC (nodejs/undici#4068).
    answer = await internals.transport({ method: method.toUpperCase(), url, headers: all, body: json }, signal, settingsOf(options));
  } catch (err) {
    if (err instanceof TransportFailure) return failure(err.detail);
    // An `oauthToken` function that failed, so nothing was sent.
    if (err instanceof CredentialError) return failure(describeFailure(err, url).error);
    throw err;
  }
  const text = decoder.decode(answer.body);
  if (answer.status < 200 || answer.status > 299) return failure(redactError(httpError(answer, text), internals.secrets()), answer);
  if (!text) return { data: undefined as T, error: undefined, answer };
  try {
    return { data: JSON.parse(text) as T, error: undefined, answer };
  } catch {
    const error = `${describeStatus(answer)} but the body is not JSON`;
    return failure({ kind: "invalid_response", status: answer.status, url: answer.url, error }, answer);
  }
}

/** What is wrong with the options, in words that say how to fix it; undefined when nothing is. */
function optionsProblem(options: unknown, method: string, path: string): string | undefined {
  const name = operationName(method, path);
  if (!isObject(options)) return `${name} takes an options object: call ${name}({ client, ... }) with the client from createReduckClient()`;
  const { client, path: pathParams, query, body, signal, headers } = options as unknown as RawOptions;
  if (!isClient(client)) return `${name}: pass the client from createReduckClient() as \`client\``;
  for (const [slot, value] of [
    ["path", pathParams],
    ["query", query],
    ["headers", headers],
  ] as const) {
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
  const settings = settingsProblem(options as CallSettingsOptions, name);
  if (settings) return settings.message;
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
  return { kind: "invalid_request", code: "invalid_options", error };
}

function failure(error: ReduckError, answer?: Answer): { data: undefined; error: ReduckError; answer?: Answer } {
  return { data: undefined, error, answer };
}

export function isClient(client: unknown): client is ReduckClient {
  try {
    clientInternals(client as ReduckClient);
    return true;
  } catch {
    return false;
  }
}
