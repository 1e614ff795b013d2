/**
 * What every generated function does: send through the client's openapi-fetch instance,
 * then turn whatever happened into `{ data, error, response }`. Nothing here throws.
 */
import type { ReduckClient } from "../client.js";
import { httpError, transportError, describeStatus, type ReduckError } from "./errors.js";
import type { CallOptions, ListResult, OperationResult } from "./types.js";

interface RawOptions extends CallOptions {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export async function callOperation<T>(options: RawOptions, method: string, path: string): Promise<OperationResult<T>> {
  const { client, path: pathParams, query, body, signal, headers } = options;
  if (!isClient(client)) {
    return failure({ kind: "invalid_request", error: "pass the client from createReduckClient() as `client`" });
  }
  let result: { data?: unknown; error?: unknown; response: Response };
  try {
    // parseAs "text": we parse success bodies ourselves so a 2xx with a broken body becomes
    // an error value instead of an exception.
    result = (await client.api.request(method as "get", path as never, {
      params: { path: pathParams, query },
      body,
      signal,
      headers,
      parseAs: "text",
    } as never)) as typeof result;
  } catch (err) {
    return failure(transportError(err, `${client.baseUrl}${path}`));
  }
  const response = result.response;
  if (!response.ok) return failure(httpError(response, result.error ?? ""), response);
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

function failure(error: ReduckError, response?: Response): { data: undefined; error: ReduckError; response: Response | undefined } {
  return { data: undefined, error, response };
}

function isClient(client: unknown): client is ReduckClient {
  return Boolean(client && typeof (client as ReduckClient).api?.request === "function");
}
