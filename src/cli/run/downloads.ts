/**
 * `--out DIR`: the files a script's result holds, written into DIR.
 *
 * - A download, `{ filename, url }` (what a managed browser hands back), is fetched from its URL
 *   and streamed to disk; the object gains `path`.
 * - A file's bytes as base64 (download_invoice's `pdf_base64`) are decoded and written when the
 *   contract says so: `contentEncoding: "base64"` on the property, or a `*_base64` name beside a
 *   `filename`. The base64 gives way to `path` (the bytes are in the file now).
 *
 * Names come from the server, so they are never trusted: no folders, no `..`, nothing outside
 * DIR, and never over an existing file (`invoice (1).pdf`).
 */
import { mkdir, open, rm, stat } from "node:fs/promises";
import path from "node:path";
import { describeFailure, type FailurePhase } from "../../core/errors.js";
import { isObject, type JsonSchema } from "../../core/json.js";
import { errorHints, withHints } from "../shell/cli-words.js";
import { usageError } from "../shell/errors.js";
import { checkFolderToWrite } from "../shell/write-check.js";
import { DEFAULT_TIMEOUT_MS } from "../../core/client.js";
import { cliFetch, timeoutFromEnv } from "../shell/network.js";
import { followByRule, type HopWords } from "../../report/hop-rule.js";

type Json = unknown;
type Holder = Record<string, Json>;

/** A file found in a result, before it is written. */
export type FoundFile = { kind: "download"; holder: Holder; filename: string; url: string } | { kind: "base64"; holder: Holder; key: string; filename: string };

/** What `--out` did with one result. */
export interface Saved {
  /** The result, with `path` where each file landed. */
  result: Json;
  /** Absolute paths written. */
  written: string[];
  /** Files that could not be written, one sentence each. */
  failures: string[];
}

const MAX_DEPTH = 6;

function isDownload(value: Holder): value is Holder & { filename: string; url: string } {
  return typeof value.filename === "string" && typeof value.url === "string" && /^https?:\/\//i.test(value.url);
}

/** `pdf_base64` -> `pdf` */
function stemOf(key: string): string {
  return key.replace(/_?base64$/i, "") || "file";
}

/**
 * The files a result holds, by the rules above; the result's own objects, so writing `path` into
 * them changes the result.
 */
export function filesIn(result: Json, schema: JsonSchema | undefined): FoundFile[] {
  const found: FoundFile[] = [];
  const walk = (value: Json, node: JsonSchema | undefined, depth: number) => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, node?.items, depth + 1);
      return;
    }
    if (!isObject(value)) return;
    if (isDownload(value)) {
      found.push({ kind: "download", holder: value, filename: value.filename, url: value.url });
      return;
    }
    for (const [key, field] of Object.entries(value)) {
      const property = node?.properties?.[key];
      const base64 = typeof field === "string" && (property?.contentEncoding === "base64" || (/_base64$/i.test(key) && typeof value.filename === "string"));
      if (base64) {
        const filename = typeof value.filename === "string" ? value.filename : `${stemOf(key)}${extensionFor(property?.contentMediaType)}`;
        found.push({ kind: "base64", holder: value, key, filename });
      } else {
        walk(field, property, depth + 1);
      }
    }
  };
  walk(result, schema, 0);
  return found;
}

const EXTENSIONS: Record<string, string> = {
  "application/pdf": ".pdf",
  "image/png": ".png",
  "image/jpeg": ".jpg",
  "text/csv": ".csv",
  "text/plain": ".txt",
  "application/json": ".json",
  "application/zip": ".zip",
};

function extensionFor(mediaType: string | undefined): string {
  return (mediaType && EXTENSIONS[mediaType.toLowerCase()]) || ".bin";
}

const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

/**
 * A name from the server made safe to create inside a folder: its last path segment only,
 * without control characters, characters some systems refuse, leading dots (so never `.` or
 * `..`), or a device name; `download` when nothing is left.
 *
 * @example
 * safeFileName("../../.ssh/authorized_keys"); // "authorized_keys"
 * safeFileName("..");                         // "download"
 */
export function safeFileName(name: string): string {
  let base = name.split(/[\\/]/).pop() ?? "";
  base = base
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, "")
    .replace(/[<>:"|?*]/g, "_")
    .replace(/^[.\s]+/, "")
    .replace(/[.\s]+$/, "");
  if (RESERVED.test(base)) base = `_${base}`;
  // Most file systems stop at 255 bytes; keep the extension when shortening.
  while (Buffer.byteLength(base) > 200) {
    const ext = path.extname(base);
    base = `${base.slice(0, Math.max(1, base.length - ext.length - 10))}${ext}`;
  }
  return base || "download";
}

/** `invoice.pdf`, `invoice (1).pdf`, `invoice (2).pdf`... */
function candidate(name: string, n: number): string {
  if (n === 0) return name;
  const ext = path.extname(name);
  return `${name.slice(0, name.length - ext.length)} (${n})${ext}`;
}

/**
 * Creates a new file in `dir` named after `filename` (never replacing one: `name (1).ext`), and
 * writes the bytes through `write`. A failed write leaves no partial file.
 */
export async function writeNew(dir: string, filename: string, write: (file: Awaited<ReturnType<typeof open>>) => Promise<void>): Promise<string> {
  const name = safeFileName(filename);
  const root = path.resolve(dir);
  for (let n = 0; n < 1000; n++) {
    const target = path.join(root, candidate(name, n));
    // The name is one plain segment, so this holds; checked anyway, since the name came from afar.
    if (path.dirname(target) !== root) throw new Error(`refusing to write ${JSON.stringify(filename)} outside ${root}`);
    let file: Awaited<ReturnType<typeof open>>;
    try {
      // "wx": create, never open an existing file (nor follow a link planted under that name).
      file = await open(target, "wx");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw err;
    }
    try {
      await write(file);
      await file.close();
      return target;
    } catch (err) {
      await file.close().catch(() => undefined);
      await rm(target, { force: true });
      throw err;
    }
  }
  throw new Error(`${root} already holds ${name} and 999 numbered copies of it`);
}

/** How a download's refusal names what may be fetched over plain http: the download's own origin. */
const DOWNLOAD_WORDS: HopWords = { own: "plain http: on the download's own origin", hint: "" };

/**
 * Fetches `url` (no credential goes with it: the URL is the permission, and it may be on another
 * host) into a new file in `dir` named after `filename`, never over an existing one. Returns its path.
 * It goes through the proxy the environment names, as every request of the CLI does.
 *
 * Redirects are followed by hand, at most 5, each by the rule the URL itself met (report/hop-rule.ts):
 * `https:`, or `http:` on the URL's own origin when the URL is `http:`, and never from `https:` down
 * to `http:`. A result's download may name plain http (a service on this machine), but a redirect
 * never takes this machine from there to another address.
 *
 * @example
 * await fetchInto("./shots", "run-last.png", "http://127.0.0.1:4010/screenshots/….png");
 */
export async function fetchInto(dir: string, filename: string, url: string): Promise<string> {
  // A server that stops sending must not hold the command forever: each wait for more bytes
  // (and for the answer itself) is bounded, like a catalogue call's.
  const idleMs = timeoutFromEnv() ?? DEFAULT_TIMEOUT_MS;
  const stalled = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let at = url;
  const rearm = () => {
    clearTimeout(timer);
    if (idleMs > 0) timer = setTimeout(() => stalled.abort(new DownloadStalled(at, idleMs)), idleMs);
  };
  rearm();
  try {
    let response: Response;
    if (/^data:/i.test(url)) {
      // A data: URL (a trace's screenshot may be one) holds its bytes: Node's fetch decodes it, offline.
      try {
        response = await fetch(url, { signal: stalled.signal });
      } catch (err) {
        throw downloadFailure(err, url, "request");
      }
    } else {
      // No size limit: the bytes go to disk as they come, never into memory whole.
      const fetchHop = cliFetch(Infinity);
      const httpOrigins = url.startsWith("http:") ? [url] : [];
      const followed = await followByRule<Response>(
        url,
        httpOrigins,
        async (hop) => {
          at = hop;
          rearm();
          let answer: Response;
          try {
            answer = await fetchHop(hop, { redirect: "manual", signal: stalled.signal });
          } catch (err) {
            throw downloadFailure(err, hop, "request");
          }
          const location = answer.headers.get("location");
          if (answer.status < 300 || answer.status > 399 || location === null) return { answer };
          void answer.body?.cancel().catch(() => undefined);
          return { location };
        },
        DOWNLOAD_WORDS,
      );
      if (followed.refused !== undefined) throw new Error(`${url}: ${followed.refused}`);
      response = followed.answer;
    }
    if (!response.ok || !response.body) {
      // Not awaited: the body is not wanted, and a cancel can stay pending (on msw's mocked responses).
      void response.body?.cancel().catch(() => undefined);
      throw new Error(`${at} answered ${response.status} ${response.statusText}`.trim());
    }
    const chunks = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    try {
      // Streamed: one chunk in memory at a time, however large the file.
      return await writeNew(dir, filename, async (file) => {
        for (;;) {
          rearm();
          let next: IteratorResult<Uint8Array>;
          try {
            next = await chunks.next();
          } catch (err) {
            throw downloadFailure(err, at, "body");
          }
          if (next.done) return;
          await file.write(next.value);
        }
      });
    } finally {
      // A file that could not be written leaves the answer unread: let its connection go.
      void Promise.resolve(chunks.return?.()).catch(() => undefined);
    }
  } finally {
    clearTimeout(timer);
  }
}

/** The reason a download was given up: nothing arrived for `ms`. */
class DownloadStalled extends Error {
  constructor(url: string, ms: number) {
    super(`${url} sent nothing for ${ms / 1000} s: the download was given up (REDUCK_TIMEOUT_MS sets how long to wait, 0 for no limit)`);
  }
}

/** A download that got no (whole) answer, in the words of any request of the CLI (the proxy, the certificate...). */
function downloadFailure(err: unknown, url: string, phase: FailurePhase): Error {
  if (err instanceof DownloadStalled) return err;
  const { error } = describeFailure(err, url, phase);
  return new Error(withHints(error.error, errorHints(error)));
}

/** Why a file could not be saved, in one line. */
export function why(err: unknown): string {
  const e = err as Error & { cause?: { code?: string } };
  return e.cause?.code ? `${e.message} (${e.cause.code})` : e.message;
}

/**
 * Writes the files a result holds into `dir` (created if missing) and says where each landed.
 *
 * @example
 * const { result, written } = await saveFiles(run.result, outputSchema, "./invoices");
 */
export async function saveFiles(result: Json, schema: JsonSchema | undefined, dir: string): Promise<Saved> {
  const copy = structuredClone(result);
  const found = filesIn(copy, schema);
  const written: string[] = [];
  const failures: string[] = [];
  if (found.length) await mkdir(dir, { recursive: true });
  for (const file of found) {
    try {
      if (file.kind === "download") {
        const saved = await fetchInto(dir, file.filename, file.url);
        file.holder.path = saved;
        written.push(saved);
      } else {
        const bytes = Buffer.from(file.holder[file.key] as string, "base64");
        const saved = await writeNew(dir, file.filename, (handle) => handle.writeFile(bytes));
        delete file.holder[file.key];
        file.holder[Object.hasOwn(file.holder, "path") ? `${stemOf(file.key)}_path` : "path"] = saved;
        written.push(saved);
      }
    } catch (err) {
      failures.push(`could not save ${file.filename}: ${why(err)}`);
    }
  }
  return { result: copy, written, failures };
}

/** Without --out: the note that says the result holds files --out would save, if it does. */
export function unsavedNote(result: Json, schema: JsonSchema | undefined): string | undefined {
  const names = filesIn(structuredClone(result), schema).map((f) => f.filename);
  if (!names.length) return undefined;
  return `The result holds ${names.length === 1 ? "a file" : "files"} (${names.join(", ")}): add --out DIR to save ${names.length === 1 ? "it" : "them"}.`;
}

/** `--out DIR` (or another such `flag`) checked before anything is run: a folder files can be created in, or one that can be made. */
export async function checkOutDir(dir: string, flag = "--out"): Promise<string> {
  let info: Awaited<ReturnType<typeof stat>> | undefined;
  try {
    info = await stat(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw usageError(`${flag} ${dir}: cannot use it (${code ?? (err as Error).message})`);
  }
  if (info && !info.isDirectory()) throw usageError(`${flag} ${dir}: it is a file, not a folder`);
  return checkFolderToWrite(dir, `${flag} ${dir}`);
}
