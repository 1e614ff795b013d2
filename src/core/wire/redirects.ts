/**
 * The one rule for redirects, whoever sends the request (node:http or the caller's fetch, which
 * is asked for `redirect: "manual"` so that this rule, not its own, decides): the credential goes
 * to the origin it was given for and nowhere else, and a request whose body is streamed (a run,
 * an upload) is never sent a second time.
 */
import { CREDENTIAL_HEADER } from "./loopback.js";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A redirect the rule does not follow (too many, or one a caller's fetch hid), as the `cause` of
 * fetch's `TypeError("fetch failed")`: describeFailure makes it a `redirect_refused` error.
 */
export class RedirectRefused extends Error {
  override name = "RedirectRefused";
  constructor(
    message: string,
    /** The redirect's status, when the answer showed it. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Whether an answer is a redirect that leads somewhere a request could follow. */
export function leadsOn(status: number, location: string | undefined, from: string): boolean {
  if (!REDIRECTS.has(status) || !location) return false;
  try {
    return /^https?:$/.test(new URL(location, from).protocol);
  } catch {
    return false;
  }
}

/**
 * The request a redirect leads to, as fetch follows it: 303 (and 301/302 after a POST) becomes a
 * GET without a body; 307 and 308 keep the method and body. Headers that carry a credential go to
 * the same origin only. Undefined when the answer is no redirect to follow.
 *
 * @example
 * redirected({ method: "GET", url: "https://a.example/x", headers: { "X-API-Key": "k" } }, 302, "https://b.example/y");
 * // { method: "GET", url: "https://b.example/y", headers: {} }
 */
export function redirected<R extends { method: string; url: string; headers: Record<string, string>; body?: unknown }>(
  request: R,
  status: number,
  location: string,
): R | undefined {
  if (!leadsOn(status, location, request.url)) return undefined;
  const url = new URL(location, request.url);
  const headers = { ...request.headers };
  if (url.origin !== new URL(request.url).origin) {
    for (const name of Object.keys(headers)) if (CREDENTIAL_HEADER.test(name)) delete headers[name];
  }
  const toGet = status === 303 ? request.method !== "HEAD" : (status === 301 || status === 302) && request.method === "POST";
  if (!toGet) return { ...request, url: url.href, headers };
  for (const name of Object.keys(headers)) if (/^content-/i.test(name)) delete headers[name];
  return { ...request, method: "GET", url: url.href, headers, body: undefined };
}
