/**
 * Where a credential may travel in the clear: this machine's loopback only. Plain http to any
 * other host lets everyone on the way read the key (a café's Wi-Fi, a proxy, a captured log), so
 * it is refused unless the user opts in by a setting named for the risk.
 */
import { isIP } from "node:net";

/**
 * `127.0.0.0/8`, `::1` or `localhost`: names that never leave this machine. (`*.localhost`
 * is left out: whether it resolves to loopback depends on the system's resolver.)
 *
 * @example
 * isLoopbackHost("127.0.0.2"); // true
 * isLoopbackHost("[::1]");     // true
 * isLoopbackHost("reduck.internal"); // false
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host === "::1" || (isIP(host) === 4 && host.startsWith("127."));
}

/** Whether a credential sent to `url` would cross the network unencrypted. */
export function isPlainHttpElsewhere(url: string | URL): boolean {
  const target = new URL(url);
  return target.protocol === "http:" && !isLoopbackHost(target.hostname);
}

/** The headers that carry a credential, which never go anywhere but where they were meant to. */
export const CREDENTIAL_HEADER = /^(authorization|x-api-key|cookie)$/i;

/** Whether a request's headers carry a credential. */
export function carriesCredential(headers: Record<string, string>): boolean {
  return Object.keys(headers).some((name) => CREDENTIAL_HEADER.test(name));
}

/** A credential about to go over plain http to another machine: refused before anything is sent. */
export class InsecureCredential extends TypeError {
  override name = "InsecureCredential";
  constructor(readonly url: string) {
    super(
      `refusing to send the credential to ${new URL(url).origin} over plain http, which anyone on the way can read: use https (plain http is allowed to this machine's loopback only), or opt in with allowInsecureHttp: true`,
    );
  }
}
