/**
 * One rule for every hop of a URL the service hands out and this machine fetches without a
 * credential (a trace's screenshot, a result's download): the URL and each redirect must be
 * `https:`, or `http:` on an origin the caller names, and never from `https:` down to `http:`; at
 * most 5 redirects, followed by hand (followByRule), each checked before it is asked. A redirect is
 * a new request, and a rule checked on the first URL alone would let an answer send this machine
 * anywhere.
 *
 * In report/ (not core/), so that the `reduck-client/report` entry, which fetches screenshots, holds
 * it without reaching the client or the transport; the CLI's downloads import it from here.
 */

/** Redirects followed at most, each checked by the rule. */
export const MAX_REDIRECTS = 5;

/** How a refusal names what may be fetched over plain http. */
export interface HopWords {
  /** What may be fetched over http, as in "only https: URLs are, or {own}". */
  own: string;
  /** Said after the refusal: how to allow another origin, if there is a way. */
  hint: string;
}

/** The words of a screenshot's refusal (the library's httpOrigins option names the service's origin). */
export const SCREENSHOT_WORDS: HopWords = {
  own: "the service's own origin",
  hint: "; a service of your own on plain http is named with the httpOrigins option",
};

export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Undefined when `url` (a hop reached from `from`, when it is a redirect) passes the rule: `https:`,
 * or `http:` on one of `httpOrigins`, and never from `https:` down to `http:`; else why not.
 *
 * @example
 * hopRefusal("https://shots.example/a.png", []); // undefined
 * hopRefusal("http://10.0.0.5/a.png", []); // "not fetched: only https: URLs are, or …"
 */
export function hopRefusal(url: string, httpOrigins: readonly string[], from?: string, words: HopWords = SCREENSHOT_WORDS): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "its URL is not a URL";
  }
  if (parsed.protocol === "https:") return undefined;
  const scheme = parsed.protocol.replace(/:$/, "");
  if (from !== undefined && from.startsWith("https:") && parsed.protocol === "http:") {
    return `not fetched: ${originOf(from)} redirected from https: to plain http: (${parsed.origin}), which is never followed`;
  }
  if (parsed.protocol === "http:" && httpOrigins.some((origin) => originOf(origin) === parsed.origin)) return undefined;
  const via = from === undefined ? "" : ` (a redirect from ${originOf(from) ?? "its URL"})`;
  return `not fetched: only https: URLs are, or ${words.own} (this is ${scheme === "http" ? parsed.origin : scheme}${via})${words.hint}`;
}

/** What one hop answered: a redirect's `location`, or the answer the caller keeps. */
export type Hopped<A> = { location: string; answer?: undefined } | { location?: undefined; answer: A };

/**
 * Asks for `url` through `ask`, one hop at a time, and follows each redirect by hand while the
 * rule lets it: the last hop's URL and answer, or the refusal in words. What `ask` throws is
 * thrown on.
 *
 * @example
 * const got = await followByRule(url, [], async (at) => {
 *   const r = await fetch(at, { redirect: "manual" });
 *   return r.status >= 300 && r.status < 400 && r.headers.get("location") ? { location: r.headers.get("location")! } : { answer: r };
 * });
 */
export async function followByRule<A>(
  url: string,
  httpOrigins: readonly string[],
  ask: (url: string) => Promise<Hopped<A>>,
  words: HopWords = SCREENSHOT_WORDS,
): Promise<{ url: string; answer: A; refused?: undefined } | { refused: string }> {
  let at = url;
  let from: string | undefined;
  for (let redirects = 0; ; redirects++) {
    const refusal = hopRefusal(at, httpOrigins, from, words);
    if (refusal) return { refused: refusal };
    const hop = await ask(at);
    if (hop.location === undefined) return { url: at, answer: hop.answer };
    const origin = new URL(at).origin;
    if (redirects >= MAX_REDIRECTS) return { refused: `not fetched: ${origin} redirected more than ${MAX_REDIRECTS} times` };
    let next: string;
    try {
      next = new URL(hop.location, at).href;
    } catch {
      return { refused: `not fetched: ${origin} redirected to something that is not a URL` };
    }
    from = at;
    at = next;
  }
}
