/**
 * How the CLI reaches the network, decided in one place: the client's catalogue calls and runs,
 * the OAuth requests of `reduck login`, token refreshes and `reduck logout`, and `--out`
 * downloads all take the same proxy. Certificate authorities come from NODE_EXTRA_CA_CERTS,
 * which Node itself adds to every TLS connection's list.
 */
import { MAX_ANSWER_BYTES } from "../../core/wire/answer-limit.js";
import { connectionFetch } from "../../core/wire/fetch.js";
import { Connections, type ConnectionOptions } from "../../core/wire/http.js";
import { isPlainHttpElsewhere } from "../../core/wire/loopback.js";
import { proxyFromEnv } from "../../core/wire/proxy.js";
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
 * A fetch with those settings, for what is not a catalogue call or a run: sign-in requests, whose
 * answers are read into memory and so are bounded (32 MiB by default), and downloads, which are
 * streamed to disk (`Infinity`).
 *
 * @example
 * const response = await cliFetch(Infinity)(download.url);
 */
export function cliFetch(maxAnswerBytes = MAX_ANSWER_BYTES): typeof fetch {
  return connectionFetch(new Connections(connectionSettings()), { maxAnswerBytes });
}

/**
 * REDUCK_ALLOW_INSECURE_HTTP=1 (or `true`): the user accepts that a credential crosses the
 * network over plain http, to a server that is not on this machine.
 */
export function insecureHttpAllowed(): boolean {
  return /^(1|true)$/i.test(process.env.REDUCK_ALLOW_INSECURE_HTTP?.trim() ?? "");
}

/**
 * Refuses, before anything is read, stored or sent, to use a credential with a plain-http URL of
 * another machine, unless REDUCK_ALLOW_INSECURE_HTTP says so. `what` names the credential.
 */
export function refuseInsecureHttp(urls: string[], what: string): void {
  if (insecureHttpAllowed()) return;
  const url = urls.find((u) => URL.canParse(u) && isPlainHttpElsewhere(u));
  if (!url) return;
  throw new CliError(
    `${url} is plain http to another machine: ${what} would cross the network unencrypted, readable by anyone on the way. Use https (plain http is for this machine's loopback only), or set REDUCK_ALLOW_INSECURE_HTTP=1 to send it anyway`,
    ExitCode.USAGE,
  );
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
