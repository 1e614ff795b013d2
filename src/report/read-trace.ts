/**
 * The one reader of a run: its record, its trace, and its screenshots as bytes of a sniffed image
 * type, or why each has none. The run's page (`reduck runs trace --html`), the screenshots saved by
 * `reduck runs trace --screenshots`, and the agent tool's `read_run_trace` all read a run here.
 *
 * The images are fetched through the client's own exchange (its proxy, certificate authorities,
 * timeouts and bounds: core/one-hop.ts) but never with its credential (a screenshot's URL is its
 * own permission), and every hop, the first and each redirect, passes the one rule of
 * screenshots.ts: `https:`, or the service's own origin, never from https down to http.
 */
import type { ReduckClient } from "../core/client.js";
import { formatBytes } from "../core/bytes.js";
import type { ReduckError } from "../core/errors.js";
import { getOneHop } from "../core/one-hop.js";
import { getRun, getRunTrace } from "../generated/operations.js";
import { fetchScreenshotBy, type ImageType, MAX_SCREENSHOT_BYTES, type ScreenshotHop, type ScreenshotImage } from "./screenshots.js";
import { normaliseTrace, type TraceScreenshotView, type TraceView } from "./trace-data.js";

/** One run as read back. */
export interface RunTraceRead {
  /** The run, as `getRun` answered. */
  run: unknown;
  /** The trace, as `getRunTrace` answered; null when the run recorded none. */
  trace: unknown;
  /** Why there is no trace (the service's words), when there is none. */
  noTrace?: string;
  /** The service's answer that said so (a 404 for a run it knows), for a caller that fails on it. */
  noTraceError?: ReduckError;
  /** The trace as recognised. */
  view: TraceView;
  /** Each screenshot's image by its URL, or why there is none (empty when images were not asked for). */
  images: Map<string, ScreenshotImage>;
}

export interface ReadRunTraceOptions {
  client: ReduckClient;
  runId: string;
  signal?: AbortSignal;
  /** Whether to fetch the screenshots' images (default true). */
  images?: boolean;
  /** Per image (default 10 MiB). */
  maxImageBytes?: number;
  /** For all images together (default 40 MiB); the ones past it are left out, with the reason. */
  maxTotalImageBytes?: number;
  /** How many images at most (default: no limit); the rest are left out, with the reason. */
  maxImages?: number;
  /** The image types kept (default: PNG, JPEG, GIF and WebP). */
  accept?: readonly ImageType[];
}

/** Screenshots worth having first: where the run failed, then the page it ended on, then the rest. */
export function byInterest<T extends Pick<TraceScreenshotView, "kind">>(shots: readonly T[]): T[] {
  const rank = (s: T) => (s.kind === "failure" ? 0 : s.kind === "last" ? 1 : 2);
  return [...shots].sort((a, b) => rank(a) - rank(b));
}

/**
 * Reads a run, its trace and its screenshots. Never throws: a run that cannot be read (unknown,
 * the network, the credential) is an error value; a run without a trace is not an error (`noTrace`
 * says why); a screenshot that cannot be had is in `images` with the reason.
 *
 * @example
 * const { data, error } = await readRunTrace({ client, runId });
 * if (data) writeFileSync("run.html", renderTraceHtml(data));
 */
export async function readRunTrace(
  options: ReadRunTraceOptions,
): Promise<{ data: RunTraceRead; error?: undefined } | { data?: undefined; error: ReduckError }> {
  const { client, runId, signal } = options;
  const path = { runId };
  const [run, trace] = await Promise.all([getRun({ client, path, signal }), getRunTrace({ client, path, signal })]);
  if (run.error) return { error: run.error };
  let noTrace: string | undefined;
  if (trace.error) {
    // The service's 404 for a run it knows (getRun just found it): it recorded no trace.
    if (trace.error.status !== 404) return { error: trace.error };
    noTrace = trace.error.error;
  }
  const raw = trace.error ? null : (trace.data as unknown);
  const view = normaliseTrace(raw);
  const images = options.images === false ? new Map<string, ScreenshotImage>() : await readImages(client, view.screenshots, options);
  return { data: { run: run.data, trace: raw, ...(trace.error ? { noTrace: noTrace ?? "", noTraceError: trace.error } : {}), view, images } };
}

async function readImages(client: ReduckClient, shots: readonly TraceScreenshotView[], options: ReadRunTraceOptions): Promise<Map<string, ScreenshotImage>> {
  const images = new Map<string, ScreenshotImage>();
  const hop: ScreenshotHop = (url, bounds) => getOneHop(client, url, bounds);
  const maxTotal = options.maxTotalImageBytes ?? 40 * 2 ** 20;
  const maxEach = options.maxImageBytes ?? MAX_SCREENSHOT_BYTES;
  const maxImages = options.maxImages ?? Number.POSITIVE_INFINITY;
  // The service's own origins may be plain http (a local sandbox); no other http: address is fetched.
  const httpOrigins = [client.baseUrl, client.runBaseUrl];
  let total = 0;
  let kept = 0;
  for (const shot of byInterest(shots)) {
    if (!shot.url || images.has(shot.url)) continue;
    const room = Math.min(maxEach, maxTotal - total);
    if (kept >= maxImages) {
      images.set(shot.url, { problem: `at most ${maxImages} screenshot${maxImages === 1 ? " is" : "s are"} read`, kind: "too_large" });
      continue;
    }
    if (shot.size !== undefined && shot.size > maxEach) {
      images.set(shot.url, {
        problem: `its declared size, ${formatBytes(shot.size)}, is more than the ${formatBytes(maxEach)} one screenshot may take`,
        kind: "too_large",
      });
      continue;
    }
    if (room <= 0 || (shot.size !== undefined && shot.size > room)) {
      images.set(shot.url, { problem: `the screenshots before it already took ${formatBytes(total)} of ${formatBytes(maxTotal)}`, kind: "too_large" });
      continue;
    }
    const image = await fetchScreenshotBy(hop, shot.url, { maxBytes: room, httpOrigins, signal: options.signal, accept: options.accept });
    if ("bytes" in image) {
      total += image.bytes.byteLength;
      kept++;
    }
    images.set(shot.url, image);
  }
  return images;
}
