/**
 * A trace's screenshots as bytes a page can embed: fetched from their URLs (no credential: the
 * URL is the permission), bounded in size and time, and embedded only when the bytes are an image
 * by their own first bytes (PNG, JPEG, GIF, WebP), whatever the server called them. An SVG or an
 * HTML page served as a "screenshot" is never embedded.
 *
 * One rule for every hop: the URL and each redirect (followed here, by hand, at most 5) must be
 * `https:` or the service's own origin, never from `https:` down to `http:`; a redirect is a new
 * request, and a rule checked on the first URL alone would let a trace send this machine anywhere.
 * The rule and its loop are hop-rule.ts's, which the CLI's downloads follow too. The loop
 * (fetchScreenshotBy) takes its one request from the caller: a fetch here, the client's exchange
 * for the reader of a run (read-trace.ts, through core/one-hop.ts).
 */
import { followByRule, hopRefusal, MAX_REDIRECTS, originOf, SCREENSHOT_WORDS } from "./hop-rule.js";

/** The image types a page embeds. */
export type ImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/**
 * Why a screenshot has no image: `refused` (a URL, or a redirect's, that the rule does not let
 * this machine fetch), `too_large`, `not_image` (bytes of another kind, whatever they were called),
 * `gone` (an answer other than 200), `unreachable` (no whole answer: the network, the time).
 */
export type ScreenshotProblemKind = "refused" | "too_large" | "not_image" | "gone" | "unreachable";

/** One screenshot's image (its type sniffed from its bytes), or why there is none: `problem` in words. */
export type ScreenshotImage = { bytes: Uint8Array; type: ImageType } | { problem: string; kind?: ScreenshotProblemKind };

/** A screenshot's bytes are left out past this size (a full-page PNG of a long page is a few MB). */
export const MAX_SCREENSHOT_BYTES = 10 * 2 ** 20;

const startsWith = (bytes: Uint8Array, prefix: number[], at = 0) => prefix.every((b, i) => bytes[at + i] === b);

/**
 * The image type of `bytes`, read from their signature; undefined when they are none of the four.
 *
 * @example
 * imageTypeOf(png); // "image/png"
 * imageTypeOf(new TextEncoder().encode("<svg>")); // undefined
 */
export function imageTypeOf(bytes: Uint8Array): ImageType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return "image/gif";
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return undefined;
}

/**
 * A `data:` URI of an image, for an `<img src>`; undefined when the bytes are not an image.
 *
 * @example
 * imageDataUri(png); // "data:image/png;base64,iVBORw0KGgo..."
 */
export function imageDataUri(bytes: Uint8Array): string | undefined {
  const type = imageTypeOf(bytes);
  return type && `data:${type};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")}`;
}

const mib = (bytes: number) => (bytes < 2 ** 20 ? `${Math.ceil(bytes / 1024)} KiB` : `${(bytes / 2 ** 20).toFixed(1).replace(/\.0$/, "")} MiB`);

/** Redirects followed at most, each checked by the rule (hop-rule.ts). */
export const MAX_SCREENSHOT_REDIRECTS = MAX_REDIRECTS;

const problem = (kind: ScreenshotProblemKind, words: string): ScreenshotImage => ({ problem: words, kind });

const IMAGE_NAMES: Record<ImageType, string> = { "image/png": "PNG", "image/jpeg": "JPEG", "image/gif": "GIF", "image/webp": "WebP" };

function checked(bytes: Uint8Array, where: string, accept: readonly ImageType[] | undefined): ScreenshotImage {
  const type = imageTypeOf(bytes);
  if (type && (!accept || accept.includes(type))) return { bytes, type };
  const names = (accept ?? ["image/png", "image/jpeg", "image/gif", "image/webp"]).map((t) => IMAGE_NAMES[t]);
  const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : (names[0] ?? "");
  return problem("not_image", `${where} is not a ${list} image${type ? ` (it is a ${IMAGE_NAMES[type]})` : ""}`);
}

/**
 * The rule every hop of a screenshot's URL must pass, the first and each redirect alike: `https:`,
 * or `http:` on one of `httpOrigins` (the service's own, say a sandbox on this machine), and never
 * from `https:` down to `http:` (hop-rule.ts, the one rule). Undefined when `url` may be fetched,
 * else why not.
 *
 * @example
 * screenshotUrlRefusal("https://shots.example/a.png", []); // undefined
 * screenshotUrlRefusal("http://10.0.0.5/a.png", []); // "not fetched: only https: URLs are, or …"
 */
export function screenshotUrlRefusal(url: string, httpOrigins: readonly string[], from?: string): string | undefined {
  return hopRefusal(url, httpOrigins, from, SCREENSHOT_WORDS);
}

/** What one request for a screenshot answered, no redirect followed (see getOneHop in core/). */
export type ScreenshotHop = (
  url: string,
  options: { maxBytes: number; timeoutMs: number; signal?: AbortSignal },
) => Promise<{ status: number; location?: string; body?: Uint8Array; tooLarge?: { declared?: number } }>;

export interface FetchScreenshotOptions {
  /** The fetch to use (a proxy's, a test's); default: the global one. It is asked for `redirect: "manual"`. */
  fetch?: typeof fetch;
  /** Bytes past which the image is left out (default 10 MiB). */
  maxBytes?: number;
  /** How long to wait for the whole image, redirects included (default 30 s). */
  timeoutMs?: number;
  /**
   * Origins whose `http:` URLs may be fetched: the service's own (a local sandbox). Any other
   * `http:` URL is refused, so a trace cannot send this machine to an address of its network;
   * the same holds for every redirect, and a redirect from `https:` to `http:` is never followed.
   */
  httpOrigins?: readonly string[];
  /** The image types kept (default: PNG, JPEG, GIF and WebP). */
  accept?: readonly ImageType[];
  signal?: AbortSignal;
}

/** A hop over a fetch function: `redirect: "manual"`, the body read up to the bound. */
function fetchHop(fetchFn: typeof fetch): ScreenshotHop {
  return async (url, { maxBytes, signal }) => {
    const response = await fetchFn(url, { signal, redirect: "manual", headers: { accept: "image/*" } });
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      void response.body?.cancel().catch(() => undefined);
      return { status: response.status, location };
    }
    // A fetch that hides redirects (a browser's: status 0) gives no place to check.
    if (response.status === 0 || response.type === "opaqueredirect") return { status: 0 };
    const declared = Number(response.headers.get("content-length"));
    if (response.headers.has("content-length") && Number.isFinite(declared) && declared > maxBytes) {
      void response.body?.cancel().catch(() => undefined);
      return { status: response.status, tooLarge: { declared } };
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    for (;;) {
      const next = reader ? await reader.read() : { done: true as const, value: undefined };
      if (next.done) break;
      size += next.value.byteLength;
      if (size > maxBytes) {
        await reader?.cancel().catch(() => undefined);
        return { status: response.status, tooLarge: {} };
      }
      chunks.push(next.value);
    }
    return { status: response.status, body: Buffer.concat(chunks) };
  };
}

/**
 * The image at a screenshot's URL through `hop`: the one loop every reader of a run uses. Each hop
 * is checked by the rule (screenshotUrlRefusal) before it is asked; at most 5 redirects; bounded
 * in size and in time; kept only when its bytes are an image. Never throws.
 */
export async function fetchScreenshotBy(hop: ScreenshotHop, url: string, options: Omit<FetchScreenshotOptions, "fetch"> = {}): Promise<ScreenshotImage> {
  const maxBytes = options.maxBytes ?? MAX_SCREENSHOT_BYTES;
  const data = /^data:([^,]*?)(;base64)?,/i.exec(url);
  if (data) {
    if (!data[2]) return problem("not_image", "the screenshot is a data: URL without base64");
    const base64 = url.slice(data[0].length);
    if (base64.length > Math.ceil(maxBytes / 3) * 4 + 4) return problem("too_large", `the screenshot is larger than ${mib(maxBytes)}`);
    return checked(Buffer.from(base64, "base64"), "the screenshot's data: URL", options.accept);
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  const httpOrigins = options.httpOrigins ?? [];
  type Hop = Awaited<ReturnType<ScreenshotHop>>;
  const followed = await followByRule<Hop | { failed: ScreenshotImage }>(url, httpOrigins, async (at) => {
    try {
      const answer = await hop(at, { maxBytes, timeoutMs, signal: options.signal });
      return answer.location !== undefined ? { location: answer.location } : { answer };
    } catch (err) {
      if (options.signal?.aborted) return { answer: { failed: problem("unreachable", "stopped") } };
      const e = err as Error & { cause?: { code?: string } };
      const why = e.name === "TimeoutError" ? `no whole answer within ${Math.round(timeoutMs / 1000)} s` : (e.cause?.code ?? e.message);
      return { answer: { failed: problem("unreachable", `${new URL(at).origin} could not be reached (${String(why).slice(0, 300)})`) } };
    }
  });
  if (followed.refused !== undefined) return problem("refused", followed.refused);
  if ("failed" in followed.answer) return followed.answer.failed;
  const answer = followed.answer;
  const origin = new URL(followed.url).origin;
  if (answer.status === 0) return problem("refused", `not fetched: ${origin} redirected, and the fetch given hid where to`);
  if (answer.tooLarge) {
    const declared = answer.tooLarge.declared;
    return problem("too_large", `the screenshot is larger than ${mib(maxBytes)}${declared !== undefined ? ` (${mib(declared)})` : ""}`);
  }
  if (answer.status !== 200) return problem("gone", `${origin} answered ${answer.status}`);
  return checked(answer.body ?? new Uint8Array(0), `what ${origin} sent`, options.accept);
}

/**
 * The image at a screenshot's URL: an `https:` URL (or an `http:` one on `httpOrigins`) is
 * fetched without any credential, a `data:` URL is decoded; either must hold an image within
 * `maxBytes`. Redirects are followed by hand, at most 5, each by the same rule as the first URL.
 * Never throws: a screenshot that cannot be had gives the reason, in words (`problem`) and as a
 * `kind`, to show in its place.
 *
 * @example
 * const image = await fetchScreenshot(shot.url);
 * if ("bytes" in image) writeFileSync("last.png", image.bytes);
 */
export async function fetchScreenshot(url: string, options: FetchScreenshotOptions = {}): Promise<ScreenshotImage> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const got = await fetchScreenshotBy(fetchHop(options.fetch ?? globalThis.fetch), url, { ...options, signal });
  if ("problem" in got && got.kind === "unreachable" && timeout.aborted && !options.signal?.aborted) {
    const origin = originOf(url) ?? "its URL";
    return problem("unreachable", `no whole answer from ${origin} within ${Math.round((options.timeoutMs ?? 30_000) / 1000)} s`);
  }
  return got;
}
