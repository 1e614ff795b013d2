// Where a release's files go: the presigned uploads a release start hands out, received by the
// sandbox itself on its own origin (the service sends the bytes straight to its storage, not
// through the API). Each URL takes one upload, until `expires_in` seconds after the start; the
// upload must carry the headers the start named, exactly, and its bytes must have the size and
// SHA-256 the release declared for that file. Also: the files of releases and apps, served back,
// to their owners only (apps are never public, and an app id or an image's address is no secret:
// flock.json names them, and is committed).
//
//   PUT <origin>/__sandbox/uploads/<token>          one file of a release (no API credential: the URL is the grant)
//   GET <origin>/__sandbox/releases/<handle>/<slug>/<n>/<name>   a file of a release, once it arrived, with the key
//                                                   (or an app:read token) of an account that may read the image
//   GET <origin>/app/<appId>/<name>                 a file of the release an installed app serves (index.html by
//                                                   default), with the key (or token) of a member of the app's scope
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { http, HttpResponse, type RequestHandler } from "msw";
import { authenticate, withChallenge } from "../auth.js";
import { withDirectRoute } from "../direct-routes.js";
import { ApiError } from "../errors.js";
import { appUser, mayReadImage } from "./app-access.js";
import { mediaTypeOf } from "../../contract/media-types.js";
import { logRequest } from "../request-log.js";
import { scratchFolder } from "../../store/scratch.js";
import type { SandboxStore } from "../../store/store.js";
import type { AssetRecord, StoredBytes } from "../../store/apps.js";

/** Where presigned uploads are received. Not an API path: the service's storage has its own host. */
export const UPLOAD_PATH = "/__sandbox/uploads";
/** Where a release's files are read back (sandbox only: the service serves them through apps). */
export const RELEASE_FILES_PATH = "/__sandbox/releases";
/** Where an installed app's files are served, as the service serves an app at `/app/<id>`. */
export const APP_PATH = "/app";

/** The URL of one presigned upload, on the origin the release start was asked on. */
export function uploadUrl(origin: string, token: string): string {
  return `${origin}${UPLOAD_PATH}/${token}`;
}

/**
 * The headers an upload must carry: the file's media type, and its SHA-256 in base64 (the checksum
 * header object storage checks an upload against).
 */
export function uploadHeaders(asset: AssetRecord): Record<string, string> {
  return {
    "content-type": mediaTypeOf(asset.name),
    "x-amz-checksum-sha256": Buffer.from(asset.sha256, "hex").toString("base64"),
  };
}

function refusal(status: number, error: string): Response {
  return new Response(JSON.stringify({ error }), { status, headers: { "content-type": "application/json" } });
}

/**
 * Each PUT is written to a file of its own and moved into place only once whole, so a second PUT
 * on a URL whose first is still arriving (or whose sender died and whose socket has not closed
 * yet) is received, as object storage receives it: the upload that completes is the one kept.
 */
let attempts = 0;

/** Receives one presigned upload. Never throws. */
export async function receiveUpload(store: SandboxStore, request: Request): Promise<Response> {
  logRequest(store, request);
  const token = new URL(request.url).pathname.slice(UPLOAD_PATH.length + 1);
  const ticket = store.uploadTickets.get(token);
  if (!ticket) return refusal(404, "No such upload URL: it was never handed out by this sandbox");
  const image = store.appImages.get(ticket.imageId);
  const release = image?.releases.find((r) => r.number === ticket.release);
  const asset = release?.assets.find((a) => a.name === ticket.name);
  if (!image || !release || !asset) return refusal(404, "This upload URL's release no longer exists");
  const what = `${ticket.name} of release ${ticket.release}`;
  if (ticket.usedAt) return refusal(409, `This upload URL was already used (${what} arrived at ${ticket.usedAt}): each URL takes one upload`);
  if (Date.now() > ticket.expiresAt) {
    return refusal(403, `This upload URL expired at ${new Date(ticket.expiresAt).toISOString()}: start a new release to get fresh ones`);
  }
  for (const [name, value] of Object.entries(ticket.headers)) {
    const sent = request.headers.get(name);
    if (sent === null) return refusal(400, `The upload of ${what} lacks the header ${name}: send every header the release start named, as given`);
    if (sent !== value) return refusal(400, `The upload of ${what} has ${name}: ${sent}, but the release start named ${value}: send it exactly as given`);
  }
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) !== asset.size) {
    return refusal(400, `The upload of ${what} is ${declared} bytes, but the release declared ${asset.size}`);
  }
  return storeBody(store, request, asset, what, token);
}

async function storeBody(store: SandboxStore, request: Request, asset: AssetRecord, what: string, token: string): Promise<Response> {
  const folder = path.join(scratchFolder(store), "app-files");
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, token);
  const part = `${file}.part-${++attempts}`;
  const handle = await open(part, "w");
  const hash = createHash("sha256");
  let received = 0;
  let problem: Response | null = null;
  try {
    const reader = request.body?.getReader();
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      if (received > asset.size) {
        problem = refusal(400, `The upload of ${what} went past the ${asset.size} bytes the release declared`);
        // Not awaited: cancelling an in-process (msw) request body may never settle.
        void reader.cancel().catch(() => {});
        break;
      }
      hash.update(value);
      await handle.write(value);
    }
  } catch {
    problem = refusal(400, `The upload of ${what} was cut off after ${received} bytes: send it again`);
  } finally {
    await handle.close();
  }
  if (!problem && received !== asset.size) problem = refusal(400, `The upload of ${what} is ${received} bytes, but the release declared ${asset.size}`);
  const sha256 = problem ? "" : hash.digest("hex");
  if (!problem && sha256 !== asset.sha256) {
    problem = refusal(400, `The bytes of ${what} have SHA-256 ${sha256}, but the release declared ${asset.sha256}`);
  }
  if (problem) {
    await rm(part, { force: true });
    return problem;
  }
  await rename(part, file);
  asset.stored = { path: file };
  store.uploadTickets.get(token)!.usedAt = store.now();
  return new Response(null, { status: 200, headers: { etag: `"${asset.sha256}"` } });
}

/** The handler of PUT …/__sandbox/uploads/<token>, also a direct route: the HTTP adapter streams the body to it. */
export function appUploadHandler(store: SandboxStore): RequestHandler {
  const matches = (pathname: string) => pathname.startsWith(UPLOAD_PATH + "/") && pathname.length > UPLOAD_PATH.length + 1;
  return withDirectRoute(
    http.put(`*${UPLOAD_PATH}/:token`, ({ request }) => receiveUpload(store, request)),
    { method: "PUT", matches, respond: (request) => receiveUpload(store, request) },
  );
}

async function fileResponse(stored: StoredBytes, name: string): Promise<Response> {
  const headers = { "content-type": mediaTypeOf(name) };
  if ("bytes" in stored) return new HttpResponse(stored.bytes, { status: 200, headers });
  // Small files whole; bigger ones streamed from the scratch folder.
  const { size } = await stat(stored.path);
  if (size <= 1024 * 1024) return new HttpResponse(await readFile(stored.path), { status: 200, headers });
  const body = Readable.toWeb(createReadStream(stored.path)) as unknown as ReadableStream<Uint8Array>;
  return new HttpResponse(body, { status: 200, headers: { ...headers, "content-length": String(size) } });
}

function notFound(error: string): Response {
  return HttpResponse.json({ error }, { status: 404 });
}

/**
 * The account asking for files of releases or apps: its key, or a token with `app:read`, and the
 * early-access feature; otherwise the answer that refuses it (401 with its challenge, or 403).
 */
async function fileReader(store: SandboxStore, request: Request): Promise<string | Response> {
  try {
    const caller = await authenticate(request, store, { scope: "app:read", anonymous: false });
    return appUser(store, caller);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return withChallenge(request, HttpResponse.json({ error: err.message }, { status: err.status }));
  }
}

/**
 * GET the files of releases and of installed apps: only for whom may read them (a release's, whoever
 * may read its image; an app's, its scope's members). Anyone else gets the 404 of a file that is
 * not there, as the API answers a scope one is not in.
 */
export function appFileHandlers(store: SandboxStore): RequestHandler[] {
  return [
    http.get(`*${RELEASE_FILES_PATH}/*`, async ({ request }) => {
      logRequest(store, request);
      const reader = await fileReader(store, request);
      if (typeof reader !== "string") return reader;
      const [handle = "", slug = "", number = "", ...rest] = new URL(request.url).pathname
        .slice(RELEASE_FILES_PATH.length + 1)
        .split("/")
        .map(decodeURIComponent);
      const owner = store.resolveHandle(handle);
      const image = owner && store.findAppImage(owner, slug);
      const visible = image && mayReadImage(store, reader, image) ? image : undefined;
      const asset = visible?.releases.find((r) => String(r.number) === number)?.assets.find((a) => a.name === rest.join("/"));
      if (!asset?.stored) return notFound(`No file ${rest.join("/")} in release ${number} of ${handle}/${slug} that you may see (or it never arrived)`);
      return fileResponse(asset.stored, asset.name);
    }),
    http.get(`*${APP_PATH}/:appId`, ({ request, params }) => serveApp(store, request, String(params.appId))),
    http.get(`*${APP_PATH}/:appId/*`, ({ request, params }) => serveApp(store, request, String(params.appId))),
  ];
}

async function serveApp(store: SandboxStore, request: Request, appId: string): Promise<Response> {
  logRequest(store, request);
  const reader = await fileReader(store, request);
  if (typeof reader !== "string") return reader;
  const found = store.apps.get(appId);
  const app = found && store.isInsider(reader, found.owner) ? found : undefined;
  const image = app?.imageId ? store.appImages.get(app.imageId) : undefined;
  const release = image?.releases.find((r) => r.number === image.currentRelease);
  if (!app || !release) return notFound(`No app ${appId} of yours serving a release here`);
  const name = decodeURIComponent(new URL(request.url).pathname.slice(`${APP_PATH}/${app.id}/`.length)) || "index.html";
  const asset = release.assets.find((a) => a.name === name);
  if (!asset?.stored) return notFound(`Release ${release.number} of this app has no file ${name}`);
  return fileResponse(asset.stored, asset.name);
}
