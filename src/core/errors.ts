/**
 * Errors are values: every failure a call can meet (an HTTP error, a refused connection,
 * a timeout, an abort, a body that is not JSON) becomes one `ReduckError` of a stable shape.
 */

export type ReduckErrorKind =
  /** The server answered with a 4xx or 5xx status. */
  | "http"
  /** No answer: the connection failed (see `cause`, e.g. ECONNREFUSED). */
  | "network"
  /** No answer within the timeout. */
  | "timeout"
  /** The caller's signal aborted the request. */
  | "aborted"
  /** The server answered 2xx with a body that is not the JSON it should be. */
  | "invalid_response"
  /** The request was refused before sending (a limit or a bad argument). */
  | "invalid_request"
  /** The `oauthToken` function threw or gave no token, so nothing was sent (`error` is its message). */
  | "credential";

export interface ReduckError {
  /** A human-readable message: the server's own where it gave one. */
  error: string;
  /** Per-field messages, where the server gave them (`{ slug: ["..."] }`). */
  variables?: Record<string, string[]>;
  kind: ReduckErrorKind;
  /** HTTP status, for `http` and `invalid_response` errors. */
  status?: number;
  /** The system error code behind a transport failure (ECONNREFUSED, ENOTFOUND...). */
  cause?: string;
  /** The URL that was called (without credentials). */
  url?: string;
}

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

/**
 * Builds the error for a non-2xx answer from whatever body the server sent: text, or the
 * JSON openapi-fetch already parsed from it.
 */
export function httpError(response: Response, body: unknown): ReduckError {
  const status = response.status;
  const base: ReduckError = { kind: "http", status, url: response.url || undefined, error: "" };
  const bodyText = typeof body === "string" ? body : "";
  const parsed = typeof body === "string" ? parseJson(body) : body;
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
    const body = parsed as { error?: unknown; message?: unknown; variables?: unknown };
    const message = typeof body.error === "string" ? body.error : typeof body.message === "string" ? body.message : "";
    base.error = message || describeStatus(response);
    if (body.variables && typeof body.variables === "object") base.variables = normaliseVariables(body.variables);
    return base;
  }
  const type = response.headers.get("content-type")?.split(";")[0]?.trim();
  base.error = bodyText.trim()
    ? `${describeStatus(response)}: the server answered with ${type || "a body"} instead of JSON`
    : describeStatus(response);
  return base;
}

export function describeStatus(response: Pick<Response, "status" | "statusText">): string {
  const text = response.statusText || STATUS_TEXT[response.status] || "Error";
  return `HTTP ${response.status} ${text}`;
}

/** An `oauthToken` function that failed; becomes a `credential` error value, `code` its `cause`. */
export class CredentialError extends Error {
  override name = "CredentialError";
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Maps what `fetch` threw to an error value. */
export function transportError(err: unknown, url: string | undefined): ReduckError {
  if (err instanceof CredentialError) return { kind: "credential", error: err.message, cause: err.code, url };
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  const where = url ? safeOrigin(url) : "the server";
  if (e?.name === "TimeoutError" || (err as { reduckTimeoutMs?: number })?.reduckTimeoutMs) {
    const ms = (err as { reduckTimeoutMs?: number }).reduckTimeoutMs;
    return { kind: "timeout", error: `no answer from ${where} within ${ms ? `${ms} ms` : "the timeout"}`, url };
  }
  if (e?.name === "AbortError") {
    return { kind: "aborted", error: "the request was aborted", url };
  }
  const code = e?.cause?.code ?? (err as { code?: string })?.code;
  const reason = code ?? e?.cause?.message ?? e?.message ?? String(err);
  return { kind: "network", error: `could not connect to ${where} (${reason})`, cause: code, url };
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
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
