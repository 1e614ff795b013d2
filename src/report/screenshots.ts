/**
 * A trace's screenshots as bytes a page can embed: fetched from their URLs (no credential: the
 * URL is the permission), bounded in size and time, and embedded only when the bytes are an image
 * by their own first bytes (PNG, JPEG, GIF, WebP), whatever the server called them. An SVG or an
 * HTML page served as a "screenshot" is never embedded.
 */

/** The image types a page embeds. */
export type ImageType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** One screenshot's image, or why there is none. */
export type ScreenshotImage = { bytes: Uint8Array; type: ImageType } | { problem: string };

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

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

const mib = (bytes: number) => (bytes < 2 ** 20 ? `${Math.ceil(bytes / 1024)} KiB` : `${(bytes / 2 ** 20).toFixed(0)} MiB`);

function checked(bytes: Uint8Array, where: string): ScreenshotImage {
  const type = imageTypeOf(bytes);
  return type ? { bytes, type } : { problem: `${where} is not a PNG, JPEG, GIF or WebP image` };
}

export interface FetchScreenshotOptions {
  /** The fetch to use (a proxy's, a test's); default: the global one. */
  fetch?: typeof fetch;
  /** Bytes past which the image is left out (default 10 MiB). */
  maxBytes?: number;
  /** How long to wait for the whole image (default 30 s). */
  timeoutMs?: number;
  /**
   * Origins whose `http:` URLs may be fetched: the service's own (a local sandbox). Any other
   * `http:` URL is refused, so a trace cannot send this machine to an address of its network.
   */
  httpOrigins?: readonly string[];
  signal?: AbortSignal;
}

/**
 * The image at a screenshot's URL: an `https:` URL (or an `http:` one on `httpOrigins`) is
 * fetched without any credential, a `data:` URL is decoded; either must hold an image within
 * `maxBytes`. Never throws: a
 * screenshot that cannot be had gives the reason, in words, to show in its place.
 *
 * @example
 * const image = await fetchScreenshot(shot.url);
 * if ("bytes" in image) writeFileSync("last.png", image.bytes);
 */
export async function fetchScreenshot(url: string, options: FetchScreenshotOptions = {}): Promise<ScreenshotImage> {
  const maxBytes = options.maxBytes ?? MAX_SCREENSHOT_BYTES;
  const data = /^data:([^,]*?)(;base64)?,/i.exec(url);
  if (data) {
    if (!data[2]) return { problem: "the screenshot is a data: URL without base64" };
    const base64 = url.slice(data[0].length);
    if (base64.length > Math.ceil(maxBytes / 3) * 4 + 4) return { problem: `the screenshot is larger than ${mib(maxBytes)}` };
    return checked(Buffer.from(base64, "base64"), "the screenshot's data: URL");
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: "its URL is not a URL" };
  }
  const ownHttp = parsed.protocol === "http:" && (options.httpOrigins ?? []).some((origin) => originOf(origin) === parsed.origin);
  if (parsed.protocol !== "https:" && !ownHttp) {
    return { problem: `not fetched: only https: URLs are, or the service's own origin (this is ${parsed.protocol.replace(/:$/, "")})` };
  }
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 30_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    const response = await (options.fetch ?? globalThis.fetch)(parsed.href, { signal, redirect: "follow", headers: { accept: "image/*" } });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return { problem: `${parsed.origin} answered ${response.status}` };
    }
    const declared = Number(response.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      return { problem: `the screenshot is larger than ${mib(maxBytes)} (${mib(declared)})` };
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
        return { problem: `the screenshot is larger than ${mib(maxBytes)}` };
      }
      chunks.push(next.value);
    }
    return checked(Buffer.concat(chunks), `what ${parsed.origin} sent`);
  } catch (err) {
    if (timeout.aborted) return { problem: `no whole answer from ${parsed.origin} within ${Math.round((options.timeoutMs ?? 30_000) / 1000)} s` };
    if (options.signal?.aborted) return { problem: "stopped" };
    // Node's fetch names the system error as its cause; the client's exchange says what happened in words.
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as { detail?: { error?: string } }).detail?.error;
    return { problem: `${parsed.origin} could not be reached${cause ? ` (${String(cause).slice(0, 300)})` : ""}` };
  }
}
