// Downloads: the files the simulated web (../browser/web/) serves to the simulated page (a small
// generated PDF for an Atlassian invoice), and where a download lands, from either page: on the
// caller's own browser, in that browser's download folder on this machine (`{ filename, path }`); on
// a managed browser, behind a URL this server serves (`{ filename, url }`), as the real service
// hands back a managed browser's download.
import { randomUUID } from "node:crypto";
import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { http, HttpResponse, type RequestHandler } from "msw";
import { answerWeb } from "./browser/web/index.js";
import { scratchFolder } from "../store/scratch.js";
/** The store a shelf belongs to: only its identity is used (a WeakMap key), so any store will do. */
type StoreKey = object;

/** A file the simulated web serves. */
export interface WebFile {
  bytes: Uint8Array;
  type: string;
  /** The name a Content-Disposition header would suggest; Atlassian's billing endpoint sends none. */
  suggestedName?: string;
}

/** A downloaded file, ready to be handed back. */
export interface DownloadedFile {
  filename: string;
  type: string;
  bytes: Uint8Array;
}

/** Where a download went: a path on this machine (own browser) or a URL (managed browser). */
export type Delivery = (file: DownloadedFile) => Promise<{ path: string } | { url: string }>;

/**
 * What the simulated web serves as a file at `url` (an answer with `Content-Disposition: attachment`,
 * as admin.atlassian.com's invoices), or null: a page, a 404, or no URL at all. The simulated page
 * gets the same bytes the real browser downloads.
 */
export function simulatedFile(url: string): WebFile | null {
  if (!URL.canParse(url)) return null;
  const answer = answerWeb(new URL(url));
  if (answer.status !== 200 || !/^attachment\b/i.test(answer.headers["content-disposition"] ?? "")) return null;
  const bytes = typeof answer.body === "string" ? new TextEncoder().encode(answer.body) : answer.body;
  return { bytes, type: answer.headers["content-type"] ?? "application/octet-stream" };
}

/** Per store: files managed browsers downloaded, by token, and the own browser's download folder. */
interface Shelf {
  files: Map<string, DownloadedFile>;
  folder?: Promise<string>;
}

const shelves = new WeakMap<StoreKey, Shelf>();

function shelfOf(store: StoreKey): Shelf {
  let shelf = shelves.get(store);
  if (!shelf) shelves.set(store, (shelf = { files: new Map() }));
  return shelf;
}

/** A name the browser may save under: no folders, no `..`, nothing that is not printable. */
function savedName(name: string): string {
  const base = name
    .split(/[\\/]/)
    .pop()!
    .replace(/[\x00-\x1f\x7f]/g, "")
    .replace(/^\.+/, "");
  return base || "download";
}

/**
 * Where a run's downloads go. Own browser: saved in that browser's download folder (a temporary
 * folder standing in for ~/Downloads, so the sandbox never writes into a real one). Managed
 * browser: kept here and served at `<origin>/downloads/<token>`.
 */
export function deliveryFor(store: StoreKey, origin: string, ownBrowser: boolean): Delivery {
  return async (file) => {
    const shelf = shelfOf(store);
    if (ownBrowser) {
      shelf.folder ??= mkdtemp(path.join(scratchFolder(store), "downloads-")); // removed with the store's scratch folder
      const folder = await shelf.folder;
      await mkdir(folder, { recursive: true });
      const saved = path.join(folder, savedName(file.filename));
      await writeFile(saved, file.bytes);
      return { path: saved };
    }
    const token = randomUUID();
    shelf.files.set(token, { filename: file.filename, type: file.type, bytes: file.bytes });
    return { url: `${origin}/downloads/${token}` };
  };
}

/** GET `/downloads/<token>`: a managed browser's download, to anyone holding its URL (like a signed URL). */
export function downloadHandler(store: StoreKey): RequestHandler {
  return http.get("*/downloads/:token", ({ params }) => {
    const file = shelfOf(store).files.get(String(params.token));
    if (!file) return HttpResponse.json({ error: "No such download: it never existed on this server" }, { status: 404 });
    return new HttpResponse(file.bytes, {
      status: 200,
      headers: {
        "content-type": file.type,
        "content-length": String(file.bytes.byteLength),
        "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      },
    });
  });
}
