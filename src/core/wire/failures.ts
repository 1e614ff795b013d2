/**
 * What a failed attempt means: whatever an exchange threw (a refused connection, a timeout, an
 * abort, a refused redirect, an answer too large, a token function that failed) as an error value,
 * and whether trying again could help. The wire's own: the transport, runs and uploads all read
 * their failures here. (The error values' other makers, and their types, are errors.ts and
 * error-types.ts in core/.)
 */
import type { ReduckError } from "../error-types.js";
import { AnswerTooLarge } from "./answer-limit.js";
import { InsecureCredential } from "./loopback.js";
import { RedirectRefused } from "./redirects.js";

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

/** What a failed attempt means: the error value, and whether trying again could help. */
export interface Failure {
  error: ReduckError;
  /** The request cannot have reached the server (the connection was never made). */
  notSent: boolean;
  /** A passing fault (a timeout, a dropped connection): worth repeating a request that is safe to repeat. */
  transient: boolean;
}

/** Before the response headers arrived, or while reading the answer's body. */
export type FailurePhase = "request" | "body";

/** Codes meaning the connection was never made, so even a POST may be repeated. */
const NOT_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);

/** Codes of a connection that failed once made: what happened, in words, before and during the answer. */
const AFTER_CONNECT: Record<string, [request: string, body: string]> = {
  // Node says "socket hang up" (before the answer) or "aborted" (during it) when the server closed.
  CLOSED: ["{where} closed the connection before answering", "{where} closed the connection before the whole answer arrived"],
  ECONNRESET: ["the connection to {where} was reset before the answer arrived", "the connection to {where} was reset while the answer was arriving"],
  UND_ERR_SOCKET: ["{where} closed the connection before answering", "{where} closed the connection before the whole answer arrived"],
  UND_ERR_CLOSED: ["{where} closed the connection before answering", "{where} closed the connection before the whole answer arrived"],
  ECONNABORTED: ["the connection to {where} was aborted before the answer arrived", "the connection to {where} was aborted while the answer was arriving"],
  EPIPE: ["{where} closed the connection while the request was being sent", "{where} closed the connection while the request was being sent"],
  ETIMEDOUT: ["the connection to {where} timed out", "the connection to {where} timed out while the answer was arriving"],
  UND_ERR_HEADERS_TIMEOUT: [
    "no answer from {where}: the wait for its response headers ran out",
    "no answer from {where}: the wait for its response headers ran out",
  ],
  UND_ERR_BODY_TIMEOUT: ["{where} stopped sending its answer", "{where} stopped sending its answer"],
};

/** Codes of a TLS handshake that refused the server's certificate. */
const TLS_REFUSED = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS_/;

/**
 * Maps whatever a request attempt threw (fetch's `TypeError: fetch failed` with the system
 * error as its cause, a timeout or abort of ours, a malformed request) to an error value,
 * and says whether repeating the request could help.
 */
export function describeFailure(err: unknown, url: string | undefined, phase: FailurePhase = "request"): Failure {
  if (err instanceof CredentialError) {
    return { error: { kind: "credential", error: err.message, cause: err.code, url }, notSent: true, transient: false };
  }
  if (err instanceof InsecureCredential) {
    return { error: { kind: "invalid_request", code: "insecure_http", error: err.message, url }, notSent: true, transient: false };
  }
  // Said by the exchange, or by a fetch over it as the cause of its "fetch failed".
  const refused = along(err, (e): e is AnswerTooLarge | RedirectRefused => e instanceof AnswerTooLarge || e instanceof RedirectRefused);
  if (refused instanceof AnswerTooLarge) return tooLargeFailure(refused, url, undefined);
  if (refused) {
    const status = refused.status !== undefined ? { status: refused.status } : {};
    return { error: { kind: "invalid_response", code: "redirect_refused", ...status, error: refused.message, url }, notSent: false, transient: false };
  }
  const proxy = proxyOf(err);
  const where = `${url ? safeOrigin(url) : "the server"}${typeof proxy === "string" ? ` through the proxy ${proxy}` : ""}`;
  const aborted = err as { name?: string; cause?: { kind?: string; ms?: number; reason?: { name?: string } } };
  if (aborted?.name === "AttemptAborted" && aborted.cause?.kind === "timeout") {
    const error =
      phase === "request"
        ? `no answer from ${where} within ${aborted.cause.ms} ms`
        : `the answer from ${where} did not finish arriving within ${aborted.cause.ms} ms`;
    return { error: { kind: "timeout", error, url }, notSent: false, transient: true };
  }
  if (aborted?.name === "AttemptAborted" && aborted.cause?.kind === "aborted" && aborted.cause.reason?.name === "TimeoutError") {
    return { error: { kind: "timeout", error: `no answer from ${where} before your signal's timeout`, url }, notSent: false, transient: false };
  }
  if ((aborted?.name === "AttemptAborted" && aborted.cause?.kind === "aborted") || aborted?.name === "AbortError") {
    return { error: { kind: "aborted", error: "the request was aborted", url }, notSent: false, transient: false };
  }
  const code = systemCode(err);
  if (code && NOT_CONNECTED.has(code)) {
    // Through a proxy, the connection that failed is the one to the proxy (it reaches the server).
    const error = typeof proxy === "string" ? `could not connect to the proxy ${proxy} (${code})` : `could not connect to ${where} (${code})`;
    return {
      error: { kind: "network", error, cause: code, url, ...(typeof proxy === "string" ? { code: "proxy_failed" } : {}) },
      notSent: true,
      transient: true,
    };
  }
  if (code === "EPROXYREFUSED") {
    const status = (err as { proxyStatus?: number }).proxyStatus ?? 0;
    const error = `the proxy ${String(proxy)} would not open a connection to ${url ? safeOrigin(url) : "the server"} (${innermostMessage(err).replace(/^the proxy /, "it ")})`;
    return { error: { kind: "network", error, cause: code, code: "proxy_failed", url }, notSent: true, transient: status >= 500 };
  }
  if (code && TLS_REFUSED.test(code)) {
    const error = `the certificate of ${where} was not accepted (${code}: ${innermostMessage(err)}): if you trust it, add its authority with the client's \`ca\` option`;
    return { error: { kind: "network", error, cause: code, code: "certificate_refused", url }, notSent: true, transient: false };
  }
  const closed = code === "ECONNRESET" && /^(socket hang up|aborted)$/.test(innermostMessage(err));
  const words = code ? AFTER_CONNECT[closed ? "CLOSED" : code] : undefined;
  if (words && code) {
    const kind = code.endsWith("_TIMEOUT") ? "timeout" : "network";
    const error = `${words[phase === "request" ? 0 : 1].replace("{where}", where)} (${code})`;
    return { error: { kind, error, cause: code, url }, notSent: false, transient: true };
  }
  const e = err as { message?: string; cause?: unknown };
  // Node's fetch reports every network failure as a TypeError *with a cause*; a TypeError
  // without one is a request it refused to make (a body on a GET, a bad header value...).
  if (err instanceof TypeError && e.cause === undefined) {
    return {
      error: { kind: "invalid_request", code: "invalid_options", error: `the request could not be made: ${err.message}`, url },
      notSent: true,
      transient: false,
    };
  }
  const reason = code ? `${code}: ${innermostMessage(err)}` : innermostMessage(err);
  return { error: { kind: "network", error: `the request to ${where} failed (${reason})`, cause: code ?? "UNKNOWN", url }, notSent: false, transient: false };
}

/** The first error along the cause chain (a fetch wraps it once or twice) that `is` accepts. */
function along<T>(err: unknown, is: (e: unknown) => e is T): T | undefined {
  let e = err as { cause?: unknown } | undefined;
  for (let depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    if (is(e)) return e;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** The proxy a failure happened through (see ProxiedError), along the cause chain (a fetch wraps it). */
function proxyOf(err: unknown): string | undefined {
  let e = err as { proxy?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    if (typeof e.proxy === "string") return e.proxy;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** The first system error code along the cause chain (fetch wraps it once or twice). */
function systemCode(err: unknown): string | undefined {
  let e = err as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === "string") return e.code;
    if (Array.isArray(e.errors) && typeof (e.errors[0] as { code?: unknown })?.code === "string") return (e.errors[0] as { code: string }).code;
    e = e.cause as typeof e;
  }
  return undefined;
}

function innermostMessage(err: unknown): string {
  let e = err as { message?: unknown; cause?: unknown } | undefined;
  let message = String(err);
  for (let depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    if (typeof e.message === "string" && e.message) message = e.message;
    e = e.cause as typeof e;
  }
  return message;
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** An AnswerTooLarge as a failure of the call: the server's doing, so not worth repeating. */
export function tooLargeFailure(err: AnswerTooLarge, url: string | undefined, status: number | undefined): Failure {
  const where = url === undefined ? undefined : URL.canParse(url) ? new URL(url).origin : url;
  return {
    error: {
      kind: "invalid_response",
      code: "answer_too_large",
      ...(status !== undefined ? { status } : {}),
      url,
      error: where ? `${err.message} (from ${where})` : err.message,
    },
    notSent: false,
    transient: false,
  };
}
