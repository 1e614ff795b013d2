// The screenshots a run's trace refers to. The PNGs stay out of the trace's JSON (a few of them
// would be megabytes of base64 in every `runs trace`): each is kept in a file of the store's own
// folder (../scratch.ts) and served at `<origin>/screenshots/<token>.png`, a URL that is its own
// permission, like a signed URL (and like a managed browser's downloads, downloads.ts). Deleting a
// run deletes its screenshots.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { http, HttpResponse, type RequestHandler } from "msw";
import type { Screenshot } from "./browser/index.js";
import { scratchFolder } from "../store/scratch.js";
import type { SandboxStore } from "../store/store.js";

/** A screenshot as a trace shows it. */
export interface TraceScreenshot {
  /** `last`: after the run's last step; `failure`: where the run failed. */
  kind: Screenshot["kind"];
  /** Index of the trace step it shows the page after (-1: before any step). */
  afterStep: number;
  /** Where the PNG is served (no credential needed: the URL is the permission). */
  url: string;
  type: "image/png";
  size: number;
}

interface Kept {
  file: string;
  runId: string;
}

interface Shelf {
  folder?: string;
  byToken: Map<string, Kept>;
}

const shelves = new WeakMap<SandboxStore, Shelf>();

function shelfOf(store: SandboxStore): Shelf {
  let shelf = shelves.get(store);
  if (!shelf) shelves.set(store, (shelf = { byToken: new Map() }));
  return shelf;
}

function folderOf(store: SandboxStore, shelf: Shelf): string {
  if (!shelf.folder) {
    shelf.folder = path.join(scratchFolder(store), "screenshots");
    mkdirSync(shelf.folder, { recursive: true });
  }
  return shelf.folder;
}

const TOKEN = /^([0-9a-f-]{36})\.png$/;

/**
 * Keeps a run's screenshots and returns them as its trace shows them, with URLs at `origin`.
 *
 * @example
 * const shown = await keepScreenshots(store, "http://127.0.0.1:4010", run.id, end.screenshots);
 * // [{ kind: "last", afterStep: 7, url: "http://127.0.0.1:4010/screenshots/….png", type: "image/png", size: 26784 }]
 */
export async function keepScreenshots(store: SandboxStore, origin: string, runId: string, screenshots: readonly Screenshot[]): Promise<TraceScreenshot[]> {
  const shelf = shelfOf(store);
  const shown: TraceScreenshot[] = [];
  for (const { kind, afterStep, png } of screenshots) {
    const token = randomUUID();
    const file = path.join(folderOf(store, shelf), `${token}.png`);
    await writeFile(file, png);
    shelf.byToken.set(token, { file, runId });
    shown.push({ kind, afterStep, url: `${origin}/screenshots/${token}.png`, type: "image/png", size: png.byteLength });
  }
  return shown;
}

/** Deletes the screenshots of runs that are deleted. */
export async function forgetScreenshots(store: SandboxStore, runIds: Iterable<string>): Promise<void> {
  const gone = new Set(runIds);
  const shelf = shelfOf(store);
  for (const [token, kept] of shelf.byToken) {
    if (!gone.has(kept.runId)) continue;
    shelf.byToken.delete(token);
    await rm(kept.file, { force: true });
  }
}

/** GET `/screenshots/<token>.png`: a run's screenshot, to anyone holding its URL. */
export function screenshotHandler(store: SandboxStore): RequestHandler {
  return http.get("*/screenshots/:name", async ({ params }) => {
    const token = TOKEN.exec(String(params.name))?.[1];
    const kept = token ? shelfOf(store).byToken.get(token) : undefined;
    const png = kept && (await readFile(kept.file).catch(() => undefined));
    if (!png) return HttpResponse.json({ error: "No such screenshot: its run was deleted, or it never existed on this server" }, { status: 404 });
    return new HttpResponse(png, { status: 200, headers: { "content-type": "image/png", "content-length": String(png.byteLength) } });
  });
}
