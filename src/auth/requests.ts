/**
 * What every request to an authorization or resource server shares: plain http only on loopback
 * (a local sandbox and test servers), a time limit, and failures said in words.
 */
import * as oauth from "oauth4webapi";
import { AuthError } from "./types.js";

/** Any one request to an authorization server. */
const REQUEST_TIMEOUT_MS = 30_000;

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function isLoopback(url: string | URL): boolean {
  const { hostname } = new URL(url);
  return LOOPBACK.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** oauth4webapi's options for a request to `url`: http is allowed on loopback only. */
export function requestOptions(url: string | URL) {
  return { [oauth.allowInsecureRequests]: isLoopback(url), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
}

/** Refuses plain http to anything but loopback before a token could travel over it. */
export function checkSecure(url: string, what: string): void {
  const parsed = new URL(url);
  if (parsed.protocol === "https:" || (parsed.protocol === "http:" && isLoopback(parsed))) return;
  throw new AuthError(`${what} ${url} does not use https: signing in needs https (plain http is allowed on this machine's loopback only)`, "refused");
}

/**
 * Turns what oauth4webapi or fetch threw into an AuthError saying what was being done and why it
 * failed. A refused grant (`invalid_grant`) is an expired sign-in.
 */
export function authFailure(err: unknown, doing: string, where: string): AuthError {
  if (err instanceof AuthError) return err;
  if (err instanceof oauth.ResponseBodyError) {
    const reason = err.error === "invalid_grant" ? "expired" : "refused";
    return new AuthError(`${doing}: ${where} refused (${err.error}${err.error_description ? `: ${err.error_description}` : ""})`, reason);
  }
  if (err instanceof oauth.AuthorizationResponseError) {
    const what = err.error === "access_denied" ? "the sign-in was declined in the browser" : "the authorization server refused the sign-in";
    return new AuthError(`${what} (${err.error}${err.error_description ? `: ${err.error_description}` : ""})`, "refused");
  }
  if (err instanceof oauth.WWWAuthenticateChallengeError) {
    const p = err.cause[0]?.parameters ?? {};
    return new AuthError(`${doing}: ${where} refused (${p.error ?? `HTTP ${err.status}`}${p.error_description ? `: ${p.error_description}` : ""})`, "refused");
  }
  const e = err as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  if (e?.name === "TimeoutError") return new AuthError(`${doing}: no answer from ${where} within ${REQUEST_TIMEOUT_MS / 1000} s`, "unreachable", "ETIMEDOUT");
  const code = e?.cause?.code;
  if (e instanceof TypeError && (code || /fetch failed/.test(e.message ?? ""))) {
    return new AuthError(`${doing}: could not connect to ${where} (${code ?? e.cause?.message ?? e.message})`, "unreachable", code ?? "ECONNECTION");
  }
  if (err instanceof oauth.OperationProcessingError && err.code === oauth.RESPONSE_IS_NOT_CONFORM) {
    const status = (err.cause as Response | undefined)?.status;
    return new AuthError(`${doing}: ${where} answered ${status ? `HTTP ${status}` : "something unexpected"}`, "refused");
  }
  return new AuthError(`${doing}: ${where}: ${e?.message ?? String(err)}`, "refused");
}
