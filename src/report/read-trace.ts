/**
 * Everything a run's page shows of one run, read from the
 * service: the run, its trace, and its screenshots' images. The images are fetched through the
 * client's own connections (its proxy and certificate authorities) but never with its
 * credential (a screenshot's URL is its own permission), and only from `https:` URLs or the
 * service's own origin: a trace cannot send this machine to an address of its network.
 */
import type { ReduckClient } from "../client.js";
import { clientInternals } from "../core/client.js";
import type { ReduckError } from "../core/errors.js";
import { getRun, getRunTrace } from "../generated/operations.js";
import { fetchScreenshot, MAX_SCREENSHOT_BYTES, type ScreenshotImage } from "./screenshots.js";
import { normaliseTrace, type TraceView } from "./trace-data.js";

/** One run as read for its page. */
export interface RunTraceRead {
  /** The run, as `getRun` answered. */
  run: unknown;
  /** The trace, as `getRunTrace` answered; null when the run recorded none. */
  trace: unknown;
  /** Why there is no trace (the service's words), when there is none. */
  noTrace?: string;
  /** The trace as recognised. */
  view: TraceView;
  /** Each screenshot's image by its URL, or why there is none. */
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
}

/**
 * Reads a run, its trace and its screenshots. Never throws: a run that cannot be read (unknown,
 * the network, the credential) is an error value; a run without a trace is not an error (its page
 * says so); a screenshot that cannot be had is named with the reason in `images`.
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
  const images = new Map<string, ScreenshotImage>();
  if (options.images !== false) {
    const { transport } = clientInternals(client);
    // The client's one exchange (its proxy, certificate authorities, redirect rule, timeouts and
    // answer bound), with no credential: that is added by calls, not by the transport.
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const answer = await transport({ method: "GET", url: String(input), headers: { accept: "image/*" } }, init?.signal ?? undefined);
      return new Response(answer.body.byteLength ? (answer.body as Uint8Array<ArrayBuffer>) : null, { status: answer.status, headers: answer.headers });
    };
    const maxTotal = options.maxTotalImageBytes ?? 40 * 2 ** 20;
    let total = 0;
    for (const shot of view.screenshots) {
      if (!shot.url || images.has(shot.url)) continue;
      if (total >= maxTotal) {
        images.set(shot.url, { problem: `the screenshots before it already reached ${Math.round(maxTotal / 2 ** 20)} MiB` });
        continue;
      }
      const image = await fetchScreenshot(shot.url, {
        fetch,
        signal,
        maxBytes: Math.min(options.maxImageBytes ?? MAX_SCREENSHOT_BYTES, maxTotal - total),
        // The service's own origins may be plain http (a local sandbox); no other http: address is fetched.
        httpOrigins: [client.baseUrl, client.runBaseUrl],
      });
      if ("bytes" in image) total += image.bytes.byteLength;
      images.set(shot.url, image);
    }
  }
  return { data: { run: run.data, trace: raw, ...(noTrace ? { noTrace } : {}), view, images } };
}
