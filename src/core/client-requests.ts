/**
 * What the run module and the app uploads need of a client's transport, as functions that send
 * through it or read one setting: the transport itself (clientInternals) stays inside core/, so
 * every request still leaves through the one exchange (its proxy, bounds, timeouts, redirect rule).
 */
import type { AttemptGuard } from "./wire/abort.js";
import { mergeHeaders } from "./call.js";
import type { CallSettings } from "./wire/call-settings.js";
import type { ReduckClient } from "./client.js";
import { clientInternals } from "./client.js";
import { exchange, type Exchanged, type ExchangeOptions, type OutgoingRequest } from "./wire/exchange.js";
import type { Answer, CallRequest } from "./wire/transport.js";

/**
 * One request through the client's exchange (its proxy, certificate authorities and caller's
 * fetch), exactly as given: no credential, no retry. For a body sent once (a run, an upload).
 */
export function exchangeThrough(client: ReduckClient, request: OutgoingRequest, guard: AttemptGuard, options: ExchangeOptions): Promise<Exchanged> {
  return exchange(clientInternals(client).route, request, guard, options);
}

/** The credential's headers for a request to `resource` (a base URL); rejects with a CredentialError. */
export function credentialHeaders(client: ReduckClient, resource: string): Promise<Record<string, string>> {
  return clientInternals(client).authHeaders(resource);
}

/** The headers the client sends with every request of its own (User-Agent and the caller's). */
export function clientHeaders(client: ReduckClient): Record<string, string> {
  return clientInternals(client).headers;
}

/** The timeout, retries and retry notice the client's calls get unless they give their own. */
export function clientSettings(client: ReduckClient): CallSettings {
  return clientInternals(client).settings;
}

/** The credential's values, to redact from anything a server echoes back. */
export function clientSecrets(client: ReduckClient): string[] {
  return clientInternals(client).secrets();
}

/**
 * A read through the client's transport (its retries, timeouts and caller's abort) with the
 * client's headers, then `headers`, then the credential for `resource`. Throws as the transport
 * does (a TransportFailure), a CredentialError when the credential could not be had, or the
 * header check's error for a header that cannot be sent.
 */
export async function sendWithCredential(
  client: ReduckClient,
  resource: string,
  request: CallRequest,
  headers: Record<string, string> | undefined,
  signal?: AbortSignal,
): Promise<Answer> {
  const internal = clientInternals(client);
  const auth = await internal.authHeaders(resource);
  const all = mergeHeaders(internal.headers, headers, auth, request.headers);
  return await internal.transport({ ...request, headers: all }, signal);
}

/**
 * Opens the connection the client's next run will be sent on, now (Connections.openAhead):
 * only when requests go over node:http directly, not through a caller's fetch or a proxy.
 */
export function openRunConnectionAhead(client: ReduckClient): void {
  const { route } = clientInternals(client);
  if (!route.fetch) route.connections.openAhead(`${client.runBaseUrl}/run`);
}
