/**
 * What `reduck runs trace` adds to the trace it prints: the screenshots saved into a folder
 * (`--screenshots DIR`), and the line that names the failing step the way the run's page and the
 * agent tool do (counted from 1; the JSON keeps the service's own `index`). The screenshots come
 * from the one reader of a run (report/read-trace.ts): the same rule for every URL and redirect as
 * the run's page, and only bytes that are a PNG, JPEG, GIF or WebP image, named by what they are.
 */
import { mkdir } from "node:fs/promises";
import type { RunTraceRead } from "../../report/read-trace.js";
import type { ImageType } from "../../report/screenshots.js";
import { isObject } from "../../core/json.js";
import { writeNew } from "./downloads.js";

const EXTENSIONS: Record<ImageType, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp" };

/** Why a run has no screenshot, when the service is on this machine (the sandbox, whose simulated page renders nothing). */
export const SIMULATED_PAGE =
  "On the sandbox, a run on its simulated page (--browser simulated) takes none: that page renders nothing. " +
  "For a screenshot, start the sandbox without --browser simulated (its real headless Chromium) and run the script again.";

/** Whether the service is on this machine (then the sandbox's simulated page is the likely reason for no screenshot). */
export const onThisMachine = (baseUrl: string) => /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(new URL(baseUrl).hostname);

/** The service's text on a terminal line: printable ASCII only (a URL needs no more). */
const shown = (text: string) => text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).slice(0, 500);

/**
 * The line that names the step a run failed at, counted from 1 as the run's page counts, with the
 * `index` the JSON gives it; undefined when no step failed.
 *
 * @example
 * failedStepLine(read); // "Step 2 of 2 failed: read title (timed out). In the JSON it is \"index\": 1."
 */
export function failedStepLine(read: RunTraceRead): string | undefined {
  const { view } = read;
  const step = view.steps.find((s) => s.index === view.failedStep);
  if (!step) return undefined;
  const raw = (read.trace as { steps?: unknown[] } | null)?.steps?.[step.index];
  const own = isObject(raw) && (typeof raw.index === "number" || typeof raw.index === "string") ? raw.index : step.index;
  return `Step ${step.index + 1} of ${view.stepCount} failed: ${shown(step.action)}. In the JSON it is "index": ${JSON.stringify(own)}.`;
}

export interface SavedScreenshots {
  /** One line each, for stderr: where one landed. */
  saved: string[];
  /** One line each: a screenshot left out, and why. */
  leftOut: string[];
}

/**
 * Writes each screenshot the reader had as an image into `dir` (made if missing), as
 * `<run id>-<kind>.<png|jpg|gif|webp>`, never over an existing file; the trace's own screenshot
 * objects gain `path`. A screenshot with no image (refused, too large, not an image, gone) is
 * left out, said in `leftOut`.
 */
export async function saveScreenshots(read: RunTraceRead, runId: string, dir: string): Promise<SavedScreenshots> {
  const list = (read.trace as { screenshots?: unknown } | null)?.screenshots;
  const objects = Array.isArray(list) ? list : [];
  const result: SavedScreenshots = { saved: [], leftOut: [] };
  let made = false;
  for (const [i, shot] of read.view.screenshots.entries()) {
    if (!shot.url) continue;
    const kind = shot.kind || "screenshot";
    const image = read.images.get(shot.url);
    if (!image || !("bytes" in image)) {
      result.leftOut.push(`the ${shown(kind)} screenshot was not saved (${image ? shown(image.problem) : "not read"}): ${shown(shot.url)}`);
      continue;
    }
    if (!made) await mkdir(dir, { recursive: true });
    made = true;
    const file = await writeNew(dir, `${runId}-${kind}.${EXTENSIONS[image.type]}`, (handle) => handle.writeFile(image.bytes));
    const object = objects[i];
    if (isObject(object)) object.path = file;
    result.saved.push(file);
  }
  return result;
}
