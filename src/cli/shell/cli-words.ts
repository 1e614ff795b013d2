/**
 * The service and the library speak in API terms (`GET /api/devices`, `browser: "extension"`,
 * `baseUrl`). The CLI keeps their message, which is the truth about what went wrong, and adds
 * the way out in its own terms (`reduck devices list`, `--browser extension`, `--api-url`).
 */

type Hint = (match: RegExpMatchArray) => string;

const HINTS: Array<[RegExp, Hint]> = [
  [/GET \/api\/devices/, () => "See yours with `reduck devices list`."],
  [/browser: \{ ?deviceId ?\}/, () => "Pick one with --device ID (ids from `reduck devices list`)."],
  [/browser: "extension"/, () => "In the CLI: --browser extension."],
  [/browser: "managed"/, () => "In the CLI: --browser managed."],
  [/\bversion_id\b/, () => "In the CLI: --version NUMBER_OR_ID (see `reduck scripts versions list ADDRESS`)."],
  [/a multipart part named \d+:([\w.-]+)/, ([, input]) => `In the CLI: file:${input}=PATH.`],
  [/\brunBaseUrl\b/, () => "Set the run host with REDUCK_MCP_URL (or --api-url, which it defaults to)."],
  [/\bbaseUrl\b/, () => "Set the API URL with --api-url or REDUCK_API_URL."],
  [/the client's `ca` option/, () => "In the CLI: NODE_EXTRA_CA_CERTS=FILE (the authority's certificate, PEM)."],
  [
    /\bthe proxy \S+ (would not|\()|could not connect to the proxy/,
    () => "The proxy comes from HTTPS_PROXY (HTTP_PROXY for http:// URLs); NO_PROXY lists hosts to reach directly.",
  ],
  // A person's handle starts with @; a bare word is a project.
  [/(?:No such handle:? |there is no handle )([a-z0-9][\w.-]*)/i, ([, handle]) => `Did you mean @${handle}?`],
];

/**
 * The message with the CLI's way out appended, when it names an API term the CLI spells
 * differently.
 *
 * @example
 * inCliWords("No paired browser 42 on this account: list yours with GET /api/devices");
 * // "No paired browser 42 on this account: list yours with GET /api/devices. See yours with `reduck devices list`."
 */
export function inCliWords(message: string): string {
  const hints: string[] = [];
  for (const [pattern, hint] of HINTS) {
    const match = message.match(pattern);
    if (match) hints.push(hint(match));
  }
  if (!hints.length) return message;
  const ended = /[.!?]$/.test(message.trimEnd()) ? message.trimEnd() : `${message.trimEnd()}.`;
  return `${ended} ${hints.join(" ")}`;
}
