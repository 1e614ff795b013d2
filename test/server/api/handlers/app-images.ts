// App images and their releases: create, list, read, update, archive and restore; a release started
// with a presigned upload per file (received by handlers/app-uploads.ts), published once every file
// arrived (the same answer again after), and rollback to an earlier published release.
import { NOT_AUTHENTICATED } from "../auth.js";
import { ApiError, invalid } from "../errors.js";
import { assetKey, manifestView } from "../../store/apps.js";
import { appUser, memberScope, readableImage, releaseOf, writableImage, writableScope } from "./app-access.js";
import { uploadHeaders, uploadUrl } from "./app-uploads.js";
import { archivedFilter, imageSummary, imageView, newestFirst, releaseSummary, releaseView } from "./app-views.js";
import { paginate } from "./shared.js";
import type { Implementations } from "./types.js";

type AppImageOperation =
  | "listAllAppImages"
  | "listAppImages"
  | "createAppImage"
  | "getAppImage"
  | "updateAppImage"
  | "archiveAppImage"
  | "restoreAppImage"
  | "listAppImageReleases"
  | "startAppImageRelease"
  | "getAppImageRelease"
  | "publishAppImageRelease"
  | "rollbackAppImage";

export const appImageHandlers: Pick<Implementations, AppImageOperation> = {
  listAllAppImages: ({ store, caller, query }) => {
    const catalogueOnly = query.catalogueOnly === "true";
    // The public catalogue needs no account (nor the early-access feature); the rest does.
    if (!caller && !catalogueOnly) throw new ApiError(401, NOT_AUTHENTICATED);
    const userId = catalogueOnly ? (caller?.userId ?? null) : appUser(store, caller);
    const keep = archivedFilter(query.archived);
    const images = [...store.appImages.values()].filter(
      (i) => keep(i) && (catalogueOnly ? i.visibility === "public" && !i.archivedAt : i.visibility === "public" || store.isInsider(userId, i.owner)),
    );
    const page = paginate(newestFirst(images), query);
    return { status: 200, body: { ...page, data: page.data.map((i) => imageSummary(store, i)) } };
  },

  listAppImages: ({ store, caller, path, query }) => {
    const userId = appUser(store, caller);
    const owner = memberScope(store, userId, path.handle);
    const keep = archivedFilter(query.archived);
    const images = [...store.appImages.values()].filter((i) => i.owner.kind === owner.kind && i.owner.id === owner.id && keep(i));
    const page = paginate(newestFirst(images), query);
    return { status: 200, body: { ...page, data: page.data.map((i) => imageSummary(store, i)) } };
  },

  createAppImage: ({ store, caller, path, body }) => {
    const userId = appUser(store, caller);
    const owner = writableScope(store, userId, path.handle);
    if (store.findAppImage(owner, body.slug)) {
      throw new ApiError(409, `${path.handle} already has an app image called ${body.slug}, and slugs never change or come free: choose another`);
    }
    const image = store.addAppImage({ owner, slug: body.slug, name: body.name, description: body.description, about: body.about });
    return { status: 201, body: imageView(store, image) };
  },

  getAppImage: ({ store, caller, path }) => {
    const userId = appUser(store, caller);
    return { status: 200, body: imageView(store, readableImage(store, userId, path)) };
  },

  updateAppImage: ({ store, caller, path, body }) => {
    const userId = appUser(store, caller);
    const image = writableImage(store, userId, path);
    if (body.name !== undefined) image.name = body.name;
    if (body.visibility !== undefined) image.visibility = body.visibility;
    if (body.description !== undefined) image.description = body.description;
    if (body.about !== undefined) image.about = body.about;
    image.updatedAt = store.now();
    return { status: 200, body: imageView(store, image) };
  },

  archiveAppImage: ({ store, caller, path }) => {
    const userId = appUser(store, caller);
    const image = writableImage(store, userId, path);
    if (!image.archivedAt) image.archivedAt = image.updatedAt = store.now();
    return { status: 200, body: imageView(store, image) };
  },

  restoreAppImage: ({ store, caller, path }) => {
    const userId = appUser(store, caller);
    const image = writableImage(store, userId, path);
    if (image.archivedAt) {
      image.archivedAt = null;
      image.updatedAt = store.now();
    }
    return { status: 200, body: imageView(store, image) };
  },

  listAppImageReleases: ({ store, caller, path, query }) => {
    const userId = appUser(store, caller);
    const image = readableImage(store, userId, path);
    const releases = [...image.releases].sort((a, b) => b.number - a.number);
    const page = paginate(releases, query);
    return { status: 200, body: { ...page, data: page.data.map((r) => releaseSummary(image, r)) } };
  },

  startAppImageRelease: ({ store, caller, path, body, request }) => {
    const userId = appUser(store, caller);
    const image = writableImage(store, userId, path);
    if (image.archivedAt) throw new ApiError(409, `${path.handle}/${path.slug} is archived, so it takes no new releases: restore it first`);
    const seen = new Map<string, number>();
    const twice: Record<string, string[]> = {};
    body.files.forEach((file, index) => {
      const first = seen.get(file.name);
      if (first !== undefined) twice[`files.${index}.name`] = [`"${file.name}" is already files.${first}: each file name appears once`];
      else seen.set(file.name, index);
    });
    if (Object.keys(twice).length) throw invalid(twice);
    const number = image.releases.length + 1;
    const release = store.addRelease(image, {
      deployedBy: userId,
      assets: body.files.map((f) => ({ name: f.name, size: f.size, sha256: f.sha256, key: assetKey(image, number, f.name), stored: null })),
      manifest: manifestView(body.manifest),
      tools: (body.tools ?? []).map((t) => ({
        task: t.task,
        description: t.description,
        inputSchema: t.inputSchema ?? null,
        outputSchema: t.outputSchema ?? null,
      })),
      apiGrant: body.grant ?? {},
      configDefaults: body.config ?? {},
      migrations: body.migrations ?? [],
      schemaSha: body.schema_sha ?? null,
    });
    const origin = new URL(request.url).origin;
    const uploads = release.assets.map((asset) => {
      const headers = uploadHeaders(asset);
      const ticket = store.addUploadTicket(image, release, asset, headers);
      return { name: asset.name, url: uploadUrl(origin, ticket.token), headers };
    });
    return { status: 201, body: { number: release.number, uploads, expires_in: store.uploadExpirySeconds } };
  },

  getAppImageRelease: ({ store, caller, path }) => {
    const userId = appUser(store, caller);
    const image = readableImage(store, userId, path);
    return { status: 200, body: releaseView(store, image, releaseOf(image, path.releaseNumber, `${path.handle}/${path.slug}`)) };
  },

  publishAppImageRelease: ({ store, caller, path }) => {
    const userId = appUser(store, caller);
    const image = writableImage(store, userId, path);
    const address = `${path.handle}/${path.slug}`;
    const release = releaseOf(image, path.releaseNumber, address);
    // Already published: the same answer again, so a publish whose answer was lost can be repeated.
    if (release.publishedAt) return { status: 200, body: imageView(store, image) };
    if (image.archivedAt) throw new ApiError(409, `${address} is archived, so it publishes nothing: restore it first`);
    const missing = release.assets.filter((a) => !a.stored).map((a) => a.name);
    if (missing.length) {
      const list = missing.slice(0, 10).join(", ") + (missing.length > 10 ? `, and ${missing.length - 10} more` : "");
      throw new ApiError(409, `${missing.length} of the ${release.assets.length} files of release ${release.number} of ${address} never arrived: ${list}`);
    }
    release.publishedAt = store.now();
    store.serveRelease(image, release.number);
    return { status: 200, body: imageView(store, image) };
  },

  rollbackAppImage: ({ store, caller, path, body }) => {
    const userId = appUser(store, caller);
    const image = writableImage(store, userId, path);
    const address = `${path.handle}/${path.slug}`;
    const release = releaseOf(image, body.release, address);
    if (!release.publishedAt)
      throw new ApiError(409, `Release ${release.number} of ${address} was never published (its files did not all arrive), so there is nothing to serve`);
    store.serveRelease(image, release.number);
    return { status: 200, body: imageView(store, image) };
  },
};
