/**
 * The service and the library speak in API terms (`GET /api/devices`, `browser: "extension"`,
 * `baseUrl`). The CLI keeps their message, which is the truth about what went wrong, and adds
 * the way out in its own terms (`reduck devices list`, `--browser extension`, `--api-url`).
 *
 * Where the hint comes from decides how it is found, never the library's wording:
 *
 * - what the library decides, it says in fields: an error's `code` (FROM_CODES) and a client
 *   option's name (FROM_OPTIONS). Rewording a library message changes no hint.
 * - what the service says, it says in its own sentences, which only a pattern can recognise:
 *   each is named and carries an example of the service's words (SERVICE_SENTENCES), and the
 *   tests hold each to its hint, and the sandbox's sentences to their patterns.
 */
import type { ReduckError, ReduckErrorCode } from "../../core/errors.js";
import { withHint } from "../../core/words/sentence.js";

const RUN_HOST = "Set the run host with REDUCK_MCP_URL (or --api-url, which it defaults to).";
const API_URL = "Set the API URL with --api-url or REDUCK_API_URL.";
const PROXY = "The proxy comes from HTTPS_PROXY (HTTP_PROXY for http:// URLs); NO_PROXY lists hosts to reach directly.";
const CA = "In the CLI: NODE_EXTRA_CA_CERTS=FILE (the authority's certificate, PEM).";

/** The CLI's way out for an error the library decided, by its code (and the fields that code carries). */
export const FROM_CODES: Partial<Record<ReduckErrorCode, (error: ReduckError) => string | undefined>> = {
  certificate_refused: () => CA,
  proxy_failed: () => PROXY,
  run_redirected: () => RUN_HOST,
  // A batch is looked up on the run host; a run on the API's.
  run_not_found: (error) => (error.batchId ? RUN_HOST : undefined),
  run_continues: (error) => ((error.batchId ?? error.runId) ? `In the CLI: \`reduck runs wait ${error.batchId ?? error.runId}\`.` : undefined),
  run_may_continue: () => "In the CLI: `reduck runs list --script ADDRESS` lists the script's runs.",
  invalid_id: (error) => ID_LISTS[error.parameter ?? ""],
};

/** Where the CLI lists the ids of each kind a path takes. */
const ID_LISTS: Record<string, string> = {
  runId: "`reduck runs list` lists your runs and their ids.",
  batchId: "`reduck run --no-wait` prints a batch's id.",
  versionId: "`reduck scripts versions list ADDRESS` lists a script's versions and their ids.",
  appId: "`reduck flock list` lists your apps and their ids.",
};

/** The CLI's way out for a client option the library refused (ClientOptionError's `option`): the CLI sets it from these. */
export const FROM_OPTIONS: Record<string, string> = {
  baseUrl: API_URL,
  runBaseUrl: RUN_HOST,
  proxy: PROXY,
};

/**
 * A client option the library refused, in the CLI's words: what is wrong, and where the CLI sets it.
 *
 * @example
 * clientOptionWords(new ClientOptionError("baseUrl", "baseUrl must use http or https, got ftp:"));
 * // "baseUrl must use http or https, got ftp:. Set the API URL with --api-url or REDUCK_API_URL."
 */
export function clientOptionWords(error: { option: string; problem: string }): string {
  const hint = FROM_OPTIONS[error.option];
  return withHints(error.problem, hint ? [hint] : []);
}

/** A sentence of the service's, recognised by a pattern because the service owns its words. */
export interface ServiceSentence {
  /** What the sentence is about. */
  name: string;
  pattern: RegExp;
  hint: (match: RegExpMatchArray) => string;
  /** The service's words, as it says them (the sandbox says them so too). */
  example: string;
}

export const SERVICE_SENTENCES: ServiceSentence[] = [
  {
    name: "no such paired browser",
    pattern: /GET \/api\/devices/,
    hint: () => "See yours with `reduck devices list`.",
    example: "No paired browser 00000000-0000-4000-8000-00000000dead on this account: list yours with GET /api/devices",
  },
  {
    name: "several paired browsers",
    pattern: /browser: \{ ?deviceId ?\}/,
    hint: () => "Pick one with --device ID (ids from `reduck devices list`).",
    example: 'Several paired browsers match "extension" (d1, d2): "extension" picks one only when exactly one is paired; pick one with browser: { deviceId }',
  },
  {
    name: "run in your own browser",
    pattern: /browser: "extension"/,
    hint: () => "In the CLI: --browser extension.",
    example:
      'no connector for admin.atlassian.com: a managed browser starts signed out, so it needs your admin.atlassian.com session. Sign in to admin.atlassian.com in your own browser and save a connector with the Reduck extension ("Manage connectors"), or run in your own browser (browser: "extension")',
  },
  {
    name: "a version to run",
    pattern: /\bversion_id\b/,
    hint: () => "In the CLI: --version NUMBER_OR_ID (see `reduck scripts versions list ADDRESS`).",
    example: "reduck/example.com/get_title has no current version: promote a version, or run a draft with version_id",
  },
  {
    name: "a file's bytes as a multipart part",
    pattern: /a multipart part named \d+:([\w.-]+)/,
    hint: ([, input]) => `In the CLI: file:${input}=PATH.`,
    example:
      'a managed browser can\'t read a file from your machine: send the bytes of attachment instead (a multipart part named 0:attachment), or run in your own browser (browser: "extension")',
  },
  {
    // A person's handle starts with @; a bare word is a project.
    name: "no such handle",
    pattern: /(?:No such handle:? |there is no handle )([a-z0-9][\w.-]*)/i,
    hint: ([, handle]) => `Did you mean @${handle}?`,
    example: "No such handle: demo",
  },
];

/** The service's sentences `text` holds, as the CLI's ways out. */
export function serviceHints(text: string): string[] {
  const hints: string[] = [];
  for (const sentence of SERVICE_SENTENCES) {
    const match = text.match(sentence.pattern);
    if (match) hints.push(sentence.hint(match));
  }
  return hints;
}

/** The CLI's ways out for a library error: from its fields, then from any sentence of the service's its message holds. */
export function errorHints(error: ReduckError): string[] {
  const fromCode = error.code ? FROM_CODES[error.code]?.(error) : undefined;
  return [...(fromCode ? [fromCode] : []), ...serviceHints(error.error)];
}

/**
 * A sign-in's failure in the CLI's words: the ways out for the failure to reach a server behind
 * it (`failure`, from its fields), else none (the sign-in's own words are the CLI's already).
 *
 * @example
 * authWords(new AuthError("reading the sign-in details: could not connect to the proxy ...", "unreachable", "ECONNREFUSED", failure));
 */
export function authWords(error: { message: string; failure?: ReduckError }, message = error.message): string {
  return withHints(message, error.failure ? errorHints(error.failure) : []);
}

/**
 * `message` with the hints after it, each once, the message ended as a sentence first.
 *
 * @example
 * withHints("No such handle: demo", ["Did you mean @demo?"]); // "No such handle: demo. Did you mean @demo?"
 */
export function withHints(message: string, hints: string[]): string {
  return withHint(message, [...new Set(hints)].join(" ") || undefined);
}

/**
 * A message of the service's (or one that carries the service's words) with the CLI's way out
 * appended, when it names an API term the CLI spells differently.
 *
 * @example
 * inCliWords("No paired browser 42 on this account: list yours with GET /api/devices");
 * // "No paired browser 42 on this account: list yours with GET /api/devices. See yours with `reduck devices list`."
 */
export function inCliWords(message: string): string {
  return withHints(message, serviceHints(message));
}
