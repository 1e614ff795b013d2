// Downloads in the simulated browser: the files the simulated web serves (a small generated PDF for
// an Atlassian invoice), and where a download lands: on the caller's own browser, in that browser's
// download folder on this machine (`{ filename, path }`); on a managed browser, behind a URL this
// server serves (`{ filename, url }`), as the real service hands back a managed browser's download.
import { randomUUID } from "node:crypto";
import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { http, HttpResponse, type RequestHandler } from "msw";
import type { ReferenceStore } from "../store.js";

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
 * A one-page PDF that says which invoice it is: valid enough for a PDF reader, small, and the
 * same bytes for the same text, so tests can compare what arrived.
 *
 * @example
 * const pdf = invoicePdf("inv_123"); // Uint8Array starting with "%PDF-1.4"
 */
export function invoicePdf(text: string): Uint8Array {
  const safe = text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, "?");
  const stream = `BT /F1 18 Tf 72 720 Td (Invoice ${safe}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

/**
 * What the simulated web serves at `url`, or null (a 404). admin.atlassian.com serves an invoice
 * PDF at any address, named in it after the invoice id in the path (`/invoices/<id>/...`) or the
 * `id` query parameter.
 */
export function simulatedFile(url: string): WebFile | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (parsed.hostname !== "admin.atlassian.com") return null;
  const id = /\/invoices\/([^/]+)/.exec(parsed.pathname)?.[1] ?? parsed.searchParams.get("id") ?? (parsed.pathname.split("/").filter(Boolean).at(-1) || "invoice");
  return { bytes: invoicePdf(decodeURIComponent(id)), type: "application/pdf" };
}

interface ShelvedFile {
  filename: string;
  type: string;
  bytes: Uint8Array;
}

/** Per store: files managed browsers downloaded, by token, and the own browser's download folder. */
interface Shelf {
  files: Map<string, ShelvedFile>;
  folder?: Promise<string>;
}

const shelves = new WeakMap<ReferenceStore, Shelf>();

function shelfOf(store: ReferenceStore): Shelf {
  let shelf = shelves.get(store);
  if (!shelf) shelves.set(store, (shelf = { files: new Map() }));
  return shelf;
}

/** A name the browser may save under: no folders, no `..`, nothing that is not printable. */
function savedName(name: string): string {
  const base = name.split(/[\\/]/).pop()!.replace(/[\x00-\x1f\x7f]/g, "").replace(/^\.+/, "");
  return base || "download";
}

/**
 * Where a run's downloads go. Own browser: saved in that browser's download folder (a temporary
 * folder standing in for ~/Downloads, so the sandbox never writes into a real one). Managed
 * browser: kept here and served at `<origin>/downloads/<token>`.
 */
export function deliveryFor(store: ReferenceStore, origin: string, ownBrowser: boolean): Delivery {
  return async (file) => {
    const shelf = shelfOf(store);
    if (ownBrowser) {
      shelf.folder ??= mkdtemp(path.join(os.tmpdir(), "reduck-browser-downloads-"));
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
export function downloadHandler(store: ReferenceStore): RequestHandler {
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
