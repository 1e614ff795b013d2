/**
 * Finding a run whose id was never learned: its request went out, and the answer never came
 * (an abort, a timeout, a dropped connection, a process that died). The run may well exist at
 * the service; it is among its script's runs, with the same arguments, started after the request
 * was sent. runMany adopts a row's run this way; `findRun` is the same lookup for everyone.
 */
import type { ReduckClient } from "../core/client.js";
import { isClient } from "../core/call.js";
import type { ReduckError } from "../core/errors.js";
import { canonical, isObject } from "../core/json.js";
import { getMe, getScript, listRuns } from "../generated/operations.js";
import type { components } from "../generated/schema.js";

/** How long before the request's sending a run may appear to start, for clocks that differ. */
export const CLOCK_SLACK_MS = 5000;

type Run = components["schemas"]["Run"];

/** A run at the service, as a lookup sees it. */
export interface FoundRun {
  id: string;
  startedAt: number;
  args: unknown;
}

/**
 * Options of `findRun`.
 *
 * @example
 * ```ts
 * const options: FindRunOptions = { client, script: "reduck/mail.google.com/send_email", args: { to: "me@example.com" }, since: error.sentAt! };
 * ```
 */
export interface FindRunOptions {
  client: ReduckClient;
  /**
   * The script as it was run: an address (`handle/host/slug`, or `host/slug` for your own), or the
   * `script` given to runScript (`{ handle?, host, slug, args? }`, whose `args` are used unless
   * `args` is given).
   */
  script: string | { handle?: string; host: string; slug: string; args?: Record<string, unknown> };
  /** The run's arguments, compared as JSON (key order aside). Default: the script's `args`, else `{}`. */
  args?: Record<string, unknown>;
  /** When the run's request was sent (a runScript error's `sentAt`, a Date or milliseconds): runs that started before it (less a few seconds for clocks that differ) are not it. */
  since: string | number | Date;
  /** Run ids that are not it (already another request's). */
  exclude?: Iterable<string>;
  signal?: AbortSignal;
}

export type FindRunResult = { data: Run | null; error: undefined } | { data: undefined; error: ReduckError };

/**
 * Looks for the run a request started, among its script's runs: the earliest with the same
 * arguments that started after `since` and is not excluded. `data` is that run (its `id`, `status`,
 * `result`...), or `null` when there is none (the request never arrived, or the run has not
 * started yet). Never throws.
 *
 * @example
 * ```ts
 * const { error } = await runScript({ client, script, signal: AbortSignal.timeout(5_000) });
 * if (error?.code === "run_may_continue") {
 *   const found = await findRun({ client, script, since: error.sentAt! });
 *   if (found.data) console.log(`it runs at the service after all: ${found.data.id} (${found.data.status})`);
 * }
 * ```
 */
export async function findRun(options: FindRunOptions): Promise<FindRunResult> {
  const invalid = (error: string): FindRunResult => ({ data: undefined, error: { kind: "invalid_request", code: "invalid_options", error } });
  if (!isObject(options)) return invalid("findRun takes an options object: findRun({ client, script, since })");
  if (!isClient(options.client)) return invalid("pass the client from createReduckClient() as `client`");
  const script = addressOf(options.script);
  if (typeof script === "string") return invalid(script);
  const since = new Date(options.since as string | number | Date).getTime();
  if (!Number.isFinite(since))
    return invalid(`since must be when the run was sent: an ISO 8601 time, a Date or milliseconds (got ${JSON.stringify(options.since)})`);
  const args = options.args ?? (typeof options.script === "object" ? options.script.args : undefined) ?? {};
  if (!isObject(args)) return invalid("args must be an object of named values");
  const { client, signal } = options;

  let handle = script.handle;
  if (!handle) {
    const me = await getMe({ client, signal });
    if (me.error) return { data: undefined, error: me.error };
    if (!me.data.handle) {
      return {
        data: undefined,
        error: { kind: "invalid_request", code: "no_handle", error: "your account has no username yet, so it has no scripts of its own: give the handle" },
      };
    }
    handle = me.data.handle;
  }
  const read = await getScript({ client, path: { handle, host: script.host, slug: script.slug }, signal });
  if (read.error) return { data: undefined, error: { ...read.error, error: `reading ${handle}/${script.host}/${script.slug}: ${read.error.error}` } };
  const listed = await listRunsSince(client, read.data.id, since - CLOCK_SLACK_MS, signal);
  if ("error" in listed) return { data: undefined, error: listed.error };
  const exclude = new Set(options.exclude ?? []);
  const want = canonical(args);
  // Oldest first: the earliest matching run is the one the request started.
  const match = [...listed.runs].reverse().find((run) => !exclude.has(run.id) && canonical(run.args) === want);
  return { data: match ?? null, error: undefined };
}

/** The parts of an address, or what is wrong with it. */
function addressOf(script: FindRunOptions["script"]): { handle?: string; host: string; slug: string } | string {
  if (typeof script === "string") {
    const parts = script.split("/");
    if (parts.length < 2 || parts.length > 3 || parts.some((p) => !p)) return `${JSON.stringify(script)} is not a script address: expected [handle/]host/slug`;
    return parts.length === 3 ? { handle: parts[0], host: parts[1]!, slug: parts[2]! } : { host: parts[0]!, slug: parts[1]! };
  }
  if (!isObject(script) || typeof script.host !== "string" || typeof script.slug !== "string")
    return 'script must be an address such as "reduck/mail.google.com/send_email", or { handle?, host, slug }';
  return script;
}

/** The script's runs that started at or after `since` (ms), newest first. */
async function listRunsSince(client: ReduckClient, scriptId: string, since: number, signal?: AbortSignal): Promise<{ runs: Run[] } | { error: ReduckError }> {
  const runs: Run[] = [];
  for (let page = 0; ; page++) {
    const list = await listRuns({ client, query: { script_id: scriptId, page, pageSize: 100 }, signal });
    if (list.error) return { error: list.error };
    for (const run of list.data) {
      if (Date.parse(run.started_at) < since) return { runs };
      runs.push(run);
    }
    if (!list.hasNextPage) return { runs };
  }
}

/**
 * The script's runs that started at or after `since` (ms), newest first, from `listRuns`
 * filtered by the script's id; `undefined` when the list could not be read.
 *
 * @example
 * const runs = await runsSince(client, script.scriptId, Date.parse(sendingAt));
 */
export async function runsSince(client: ReduckClient, scriptId: string, since: number, signal?: AbortSignal): Promise<FoundRun[] | undefined> {
  const listed = await listRunsSince(client, scriptId, since, signal);
  if ("error" in listed) return undefined;
  return listed.runs.map((run) => ({ id: run.id, startedAt: Date.parse(run.started_at), args: run.args }));
}
