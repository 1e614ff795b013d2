/**
 * How the CLI reaches the network, decided in one place: the client's catalogue calls and runs,
 * the OAuth requests of `reduck login`, token refreshes and `reduck logout`, and `--out`
 * downloads all take the same proxy. Certificate authorities come from NODE_EXTRA_CA_CERTS,
 * which Node itself adds to every TLS connection's list.
 */
import { connectionFetch } from "../core/fetch.js";
import { Connections, type ConnectionOptions } from "../core/http.js";
import { proxyFromEnv } from "../core/proxy.js";
import { CliError } from "./errors.js";
import { ExitCode } from "./exit-codes.js";

/**
 * The connection settings: HTTPS_PROXY, HTTP_PROXY and NO_PROXY (or their lower-case forms), as
 * gh and stripe read them. A proxy variable that is not an http(s) URL is a usage error.
 */
export function connectionSettings(): ConnectionOptions {
  try {
    return { proxy: proxyFromEnv() };
  } catch (err) {
    throw new CliError((err as Error).message, ExitCode.USAGE);
  }
}

/**
 * A fetch with those settings, for what is not a catalogue call or a run: sign-in requests and
 * downloads.
 *
 * @example
 * const response = await cliFetch()(download.url);
 */
export function cliFetch(): typeof fetch {
  return connectionFetch(new Connections(connectionSettings()));
}
