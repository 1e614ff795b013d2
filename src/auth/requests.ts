/**
 * What every request to an authorization or resource server shares: plain http only on loopback
 * (a local sandbox and test servers), a time limit, the fetch that carries it (the CLI's, which
 * takes its proxy and certificate authorities), and failures said in words.
 */
import * as oauth from "oauth4webapi";
import { describeFailure } from "../core/errors.js";
import { isLoopbackHost } from "../core/wire/loopback.js";
import { AuthError } from "./types.js";

/** What sends the requests: the CLI passes a fetch over its connections; Node's own otherwise. */
export type AuthFetch = typeof fetch;

/** Any one request to an authorization server. */
const REQUEST_TIMEOUT_MS = 30_000;

export function isLoopback(url: string | URL): boolean {
  return isLoopbackHost(new URL(url).hostname);
}

/** oauth4webapi's options for a request to `url` sent with `fetch`: http is allowed on loopback only. */
export function requestOptions(url: string | URL, fetch: AuthFetch | undefined) {
  return {
    [oauth.allowInsecureRequests]: isLoopback(url),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    ...(fetch ? { [oauth.customFetch]: fetch } : {}),
  };
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
  // fetch's failure to get an answer (Node's and ours say it so), in the client's words: a proxy,
  // a certificate, a refused connection... oauth4webapi's own TypeErrors are something else.
  if (e instanceof TypeError && e.message === "fetch failed") {
    const { error } = describeFailure(err, where);
    return new AuthError(`${doing}: ${error.error}`, "unreachable", error.cause ?? "ECONNECTION", error);
  }
  if (err instanceof oauth.OperationProcessingError && err.code === oauth.RESPONSE_IS_NOT_CONFORM) {
    const status = (err.cause as Response | undefined)?.status;
    return new AuthError(`${doing}: ${where} answered ${status ? `HTTP ${status}` : "something unexpected"}`, "refused");
  }
  return new AuthError(`${doing}: ${where}: ${e?.message ?? String(err)}`, "refused");
}
