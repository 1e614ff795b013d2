/**
 * Errors are values: every failure a call can meet (an HTTP error, a refused connection,
 * a timeout, an abort, a body that is not JSON, a run that failed) becomes one `ReduckError`
 * (its types, by kind, are in error-types.ts): made here from an answer that was an error, and
 * in wire/failures.ts (re-exported here, the one address for them) from what an attempt threw.
 */

import type { ReduckError } from "./error-types.js";
import { isObject } from "./json.js";
export { CredentialError, describeFailure, type Failure, type FailurePhase } from "./wire/failures.js";

export type * from "./error-types.js";

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  409: "Conflict",
  413: "Payload Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** What an error needs of an answer. */
export interface AnswerHead {
  status: number;
  statusText?: string;
  url?: string;
  /** Names in lower case. */
  headers: Record<string, string>;
}

/**
 * Builds the error for a non-2xx answer from whatever body the server sent. A redirect that
 * reaches here was not followed (too many, or a request that is never sent twice): `redirect_refused`.
 */
export function httpError(answer: AnswerHead, bodyText: string): ReduckError {
  const status = answer.status;
  const base: ReduckError = { kind: "http", status, url: answer.url || undefined, error: "" };
  if (status >= 300 && status < 400 && answer.headers.location) base.code = "redirect_refused";
  const parsed = parseJson(bodyText);
  if (isObject(parsed)) {
    const body = parsed;
    const message = typeof body.error === "string" ? body.error : typeof body.message === "string" ? body.message : "";
    base.error = message || describeStatus(answer);
    if (body.variables && typeof body.variables === "object") base.variables = normaliseVariables(body.variables);
    return base;
  }
  const type = answer.headers["content-type"]?.split(";")[0]?.trim();
  base.error = bodyText.trim() ? `${describeStatus(answer)}: the server answered with ${type || "a body"} instead of JSON` : describeStatus(answer);
  return base;
}

export function describeStatus(response: { status: number; statusText?: string }): string {
  const text = response.statusText || STATUS_TEXT[response.status] || "Error";
  return `HTTP ${response.status} ${text}`;
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function normaliseVariables(v: object): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, val] of Object.entries(v)) {
    out[k] = Array.isArray(val) ? val.map(String) : [String(val)];
  }
  return out;
}
