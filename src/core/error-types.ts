/**
 * The error values' types: ReduckError, a union discriminated by `kind` whose members have the
 * fields their kind always has, and the library's stable codes. (The values are made in
 * errors.ts, which re-exports these.)
 */

/**
 * What kind of failure an error is: the discriminant of ReduckError.
 *
 * @example
 * ```ts
 * const retryable = (kind: ReduckErrorKind) => kind === "network" || kind === "timeout";
 * ```
 */
export type ReduckErrorKind = ReduckError["kind"];

/**
 * Stable machine codes, set where the library itself decides what is wrong (the service's own
 * refusals carry its `status`, `variables` and, for a run, `errorType` instead). Branch on these,
 * never on `error.error`, whose words may change. The table is in docs/library.md.
 *
 * @example
 * ```ts
 * const { error } = await runScript({ client, script });
 * if (error?.code === "file_too_large") console.error(`${error.parameter} is over the limit`);
 * ```
 */
export type ReduckErrorCode =
  /** An option of the call is missing, of the wrong type or out of range (`parameter` names it when one does). */
  | "invalid_options"
  /** An id that would go into a URL is not of its documented shape (a UUID): nothing was sent (`parameter`: `runId`, `versionId`, `appId` or `batchId`). */
  | "invalid_id"
  /** A file to send does not exist (`parameter`: the file input). */
  | "file_missing"
  /** A file to send cannot be read: not a regular file, no permission (`parameter`: the file input). */
  | "file_unreadable"
  /** A file to send is over the 50 MiB limit per file (`parameter`: the file input). */
  | "file_too_large"
  /** A file changed (or could not be read) while it was being sent. */
  | "file_changed"
  /** A file binding the run cannot send: a bad `relativePath`, an inline file without `b64`/`mime`, inline beside bytes. */
  | "invalid_file"
  /** A JSON run request over the 100 KiB limit: send its files as bytes. */
  | "request_too_large"
  /** An argument the script does not take (`parameter`; `suggestion`: the one it most likely meant). */
  | "unknown_argument"
  /** runMany's journal already holds a batch: resume it (`resume: true`) or give another `journal`. */
  | "journal_needs_resume"
  /** runMany's journal records a batch with other arguments for every row: resuming would run every row again. */
  | "journal_mismatch"
  /** runMany's journal is being written by another batch (its lock file says which process). */
  | "journal_locked"
  /** runMany's journal cannot be read or written. */
  | "journal_unusable"
  /** runMany's rows cannot be read (a file that is not CSV or JSONL, a row source that threw). */
  | "rows_unreadable"
  /** The script has no current version to run: promote one, or give a version. */
  | "no_current_version"
  /** Your account has no username yet, so it owns no scripts or apps: give a handle. */
  | "no_handle"
  /** deployApp's folder cannot be deployed: its files (`problems` say why, one each), its flock.json, or a folder it cannot write in. */
  | "invalid_app_folder"
  /** The run's request was sent and no answer came: the run may go on at the service (`sentAt`; find it with `findRun`). */
  | "run_may_continue"
  /** Waiting on a run stopped (your signal, `deadlineMs`, polls that kept failing): it goes on at the service (`runId` or `batchId`). */
  | "run_continues"
  /** The service refused the one script sent before making a run of it (an unknown script or version): `errorType` and `externalMessage` say why. */
  | "run_refused"
  /** There is no such run or batch to wait on (`runId` or `batchId`). */
  | "run_not_found"
  /** A run ended with neither a result nor an error (seen from a browser signed out of the site). */
  | "no_outcome"
  /** The service answered for a different number of scripts than were sent: no outcome is reported. */
  | "outcome_count"
  /** `POST /run` was answered with a redirect, which a run never follows: set `runBaseUrl` to where it points. */
  | "run_redirected"
  /** An answer was a redirect the client would not follow: too many, a request that is never sent twice, or one your `fetch` hid (an opaque redirect). */
  | "redirect_refused"
  /** An answer was larger than the 32 MiB the client reads of one, and was not read (the server's doing: not retried). */
  | "answer_too_large"
  /** A credential was about to go over plain http to a host other than this machine's loopback: nothing was sent (use https, or `allowInsecureHttp: true`). */
  | "insecure_http"
  /** The proxy could not be reached or would not open a connection. */
  | "proxy_failed"
  /** The server's TLS certificate was not accepted: add its authority with the client's `ca` option. */
  | "certificate_refused";

/** What every error has; each kind below says which of the optional fields it always has. */
interface ReduckErrorFields {
  /** A human-readable message: the server's own where it gave one. Words may change: branch on `kind` and `code`. */
  error: string;
  /** A stable machine code where the library decides what is wrong (see ReduckErrorCode). */
  code?: ReduckErrorCode;
  /** The option, argument or file input the error is about, where there is one. */
  parameter?: string;
  /** What `parameter` most likely meant (a did-you-mean), when it looks like a typo. */
  suggestion?: string;
  /** Per-field messages, where the server gave them (`{ slug: ["..."] }`). */
  variables?: Record<string, string[]>;
  /** HTTP status of the answer, where there was one. */
  status?: number;
  /** The system error code behind a transport failure (ECONNREFUSED, ENOTFOUND...). */
  cause?: string;
  /** The URL that was called (without credentials). */
  url?: string;
  /** The run the error is about, when the service named one. */
  runId?: string;
  /** The batch the error is about, when the service named one. */
  batchId?: string;
  /** The service's class of a run's failure (`site_error`, `timeout`...), when it gave one. */
  errorType?: string;
  /** The service's words about a run's failure for the person who asked for it, when it gave them. */
  externalMessage?: string;
  /** When a run's request went out (ISO 8601), for an error that leaves it unknown whether the run is going on (`run_may_continue`). */
  sentAt?: string;
}

/**
 * The server answered with a 4xx or 5xx status (`status`), and no run was made of it.
 *
 * @example
 * ```ts
 * if (error.kind === "http" && error.status === 404) console.error("no such script");
 * ```
 */
export interface ReduckHttpError extends ReduckErrorFields {
  kind: "http";
  status: number;
}

/**
 * No (whole) answer: the connection was refused, reset or closed (`cause`, e.g. ECONNREFUSED;
 * `UNKNOWN` when the failure named none).
 *
 * @example
 * ```ts
 * if (error.kind === "network" && error.cause === "ENOTFOUND") console.error("check the host name");
 * ```
 */
export interface ReduckNetworkError extends ReduckErrorFields {
  kind: "network";
  cause: string;
}

/**
 * No answer within the timeout (the client's `timeoutMs`, your signal's timeout, or a wait's `deadlineMs`).
 *
 * @example
 * ```ts
 * if (error.kind === "timeout" && error.code === "run_continues") await waitForRun({ client, batchId: error.batchId! });
 * ```
 */
export interface ReduckTimeoutError extends ReduckErrorFields {
  kind: "timeout";
}

/**
 * Your signal aborted the call.
 *
 * @example
 * ```ts
 * if (error.kind === "aborted" && error.code === "run_may_continue") await findRun({ client, script, since: error.sentAt! });
 * ```
 */
export interface ReduckAbortedError extends ReduckErrorFields {
  kind: "aborted";
}

/**
 * The server answered with something that is not what it should be: a body that is not JSON, no
 * page, a count that does not match, an answer over the size limit (`answer_too_large`), a
 * redirect that was not followed (`redirect_refused`).
 *
 * @example
 * ```ts
 * if (error.kind === "invalid_response") console.error(`the service answered something unexpected: ${error.error}`);
 * ```
 */
export interface ReduckInvalidResponseError extends ReduckErrorFields {
  kind: "invalid_response";
}

/**
 * The call itself is wrong: a bad argument or option, a limit, a request fetch refuses to make,
 * a file that changed while it was sent. Nothing was retried; fix the call (`code` says what).
 *
 * @example
 * ```ts
 * if (error.kind === "invalid_request" && error.code === "file_too_large") console.error(`${error.parameter}: over 50 MiB`);
 * ```
 */
export interface ReduckInvalidRequestError extends ReduckErrorFields {
  kind: "invalid_request";
  code: ReduckErrorCode;
}

/**
 * The run was made and ended in failure at the service, whichever way the outcome came back
 * (the run's own answer, or a wait): `runId` names it; `errorType` and `externalMessage` are the
 * service's class and words for the failure, when it gave them; `status` the HTTP status when
 * the run's request was answered with the failure.
 *
 * @example
 * ```ts
 * if (error.kind === "run_failed") console.error(`run ${error.runId} failed: ${error.externalMessage ?? error.error}`);
 * ```
 */
export interface ReduckRunFailedError extends ReduckErrorFields {
  kind: "run_failed";
  runId: string;
}

/**
 * The `oauthToken` function threw or gave no token, so nothing was sent (`error` is its message, `cause` its code).
 *
 * @example
 * ```ts
 * if (error.kind === "credential") await signInAgain();
 * ```
 */
export interface ReduckCredentialError extends ReduckErrorFields {
  kind: "credential";
}

/**
 * Every failure a call can meet, as a value: one member per `kind`, each with the fields that
 * kind always has.
 *
 * @example
 * ```ts
 * const { error } = await runScript({ client, script });
 * switch (error?.kind) {
 *   case "run_failed": console.error(`run ${error.runId} failed: ${error.externalMessage ?? error.error}`); break;
 *   case "http": console.error(`HTTP ${error.status}: ${error.error}`); break;
 *   case "network": console.error(`no connection (${error.cause})`); break;
 *   case "invalid_request": console.error(`fix the call (${error.code}): ${error.error}`); break;
 * }
 * ```
 */
export type ReduckError =
  | ReduckHttpError
  | ReduckNetworkError
  | ReduckTimeoutError
  | ReduckAbortedError
  | ReduckInvalidResponseError
  | ReduckInvalidRequestError
  | ReduckRunFailedError
  | ReduckCredentialError;
