/**
 * The one exchange: every request the library sends (catalogue calls, polls, runs, an app's
 * uploads, and the CLI's sign-in and downloads) goes out here, over node:http or the caller's own
 * fetch, chosen in this one place, under the one rule for redirects and the one rule for where a
 * credential may go. What to do about failures (retries, timers) is the callers' affair:
 * transport.ts for calls and polls, run/run.ts for runs, apps/uploads.ts for uploads.
 */
import type { AttemptGuard } from "./abort.js";
import type { Connections } from "./http.js";
import { carriesCredential, InsecureCredential, isPlainHttpElsewhere } from "./loopback.js";
import { overFetch } from "./over-fetch.js";
import { overNode } from "./over-node.js";
import { redirected } from "./redirects.js";
import type { Hop, OutgoingRequest } from "./messages.js";

export type { Hop, OutgoingRequest, RequestBody, StreamedBody } from "./messages.js";

/** How requests leave: the caller's fetch when there is one, else node:http over `connections`. */
export interface Route {
  /** The caller's own fetch: given standard RequestInit options only, and `redirect: "manual"`. */
  fetch?: typeof fetch;
  connections: Connections;
  /** Lets a credential go over plain http to a host other than loopback (the user opted in). */
  allowInsecureHttp?: boolean;
}

export interface ExchangeOptions {
  /** Redirects to follow by the rule (never for a streamed body); 0: a 3xx is the answer. */
  redirects: number;
  /** Keep the connection for later requests (catalogue calls); otherwise it is this request's own. */
  reuse?: boolean;
}

export interface Exchanged extends Hop {
  /** The URL that answered (after redirects). */
  url: string;
  redirected: boolean;
}

/**
 * Sends `request` and resolves once the answer's head has arrived, following redirects as
 * `options` allow. The guard's signal ends it (and the body, while it is read); a streamed
 * body that fails to read (a file that changed) aborts the guard with that error.
 *
 * @example
 * const guard = new AttemptGuard(60_000, signal);
 * const answer = await exchange(route, { method: "GET", url, headers }, guard, { redirects: 5, reuse: true });
 * const body = await guard.race(answer.read(MAX_ANSWER_BYTES));
 */
export async function exchange(route: Route, first: OutgoingRequest, guard: AttemptGuard, options: ExchangeOptions): Promise<Exchanged> {
  let request = first;
  for (let hops = 0; ; hops++) {
    // Checked at every hop: a redirect may lead anywhere (it keeps the credential on the same origin only).
    if (!route.allowInsecureHttp && carriesCredential(request.headers) && isPlainHttpElsewhere(request.url)) throw new InsecureCredential(request.url);
    const hop = route.fetch ? await overFetch(route.fetch, request, guard) : await overNode(route.connections, request, guard, options.reuse === true);
    const location = hop.headers.location;
    const streamed = request.body !== undefined && typeof request.body === "object" && !(request.body instanceof Uint8Array);
    const next = location && hops < options.redirects && !streamed ? redirected(request, hop.status, location) : undefined;
    if (!next) return { ...hop, url: request.url, redirected: hops > 0 };
    hop.finish();
    request = next;
  }
}
