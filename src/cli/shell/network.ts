/**
 * How the CLI reaches the network, decided in one place: the client's catalogue calls and runs,
 * the OAuth requests of `reduck login`, token refreshes and `reduck logout`, and `--out`
 * downloads all take the same proxy. Certificate authorities come from NODE_EXTRA_CA_CERTS,
 * which Node itself adds to every TLS connection's list.
 */
import { connectionFetch } from "../../core/fetch.js";
import { Connections, type ConnectionOptions } from "../../core/http.js";
import { proxyFromEnv } from "../../core/proxy.js";
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

/**
 * REDUCK_TIMEOUT_MS: how long a catalogue call may wait for its answer, and a download for its
 * next bytes (default 60000; 0 = no limit), for scripts and tests that must not wait a minute for
 * a server that does not answer. Runs have no timeout: a script may take minutes.
 */
export function timeoutFromEnv(): number | undefined {
  const value = process.env.REDUCK_TIMEOUT_MS;
  if (value === undefined || value === "") return undefined;
  if (!/^\d+$/.test(value.trim()))
    throw new CliError(`REDUCK_TIMEOUT_MS must be a whole number of milliseconds (0 for none), got ${JSON.stringify(value)}`, ExitCode.USAGE);
  return Number(value);
}
