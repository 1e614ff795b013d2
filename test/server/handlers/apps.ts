// Hosted apps: app images and their releases, apps installed from them, their secrets, updates and
// tools. Every operation first asks whether the account has the early-access feature (403 with the
// service's words if not); then who may see what: an app is never public (a scope you are not in
// answers like an unknown handle, 404), an image is seen by its scope's members or, once public, by
// any account, and changed by those who may create things in its scope (403 otherwise). The files
// of a release arrive through handlers/app-uploads.ts, the URLs of which a release start hands out.
import { randomUUID } from "node:crypto";
import type { components } from "reduck-client";
import { NOT_AUTHENTICATED, type Caller } from "../auth.js";
import { ApiError, invalid } from "../errors.js";
import type { OwnerRef } from "../records.js";
import type { ReferenceStore } from "../store.js";
import { assetKey, EARLY_ACCESS_WORDS, manifestView, type AppImageRecord, type AppRecord, type ReleaseRecord, type SealedSecret } from "../store/apps.js";
import { uploadHeaders, uploadUrl } from "./app-uploads.js";
import { paginate, requireCaller } from "./shared.js";
import type { Implementations } from "./types.js";

type Schemas = components["schemas"];

type AppOperation =
  | "listAllApps"
  | "listApps"
  | "createApp"
  | "getApp"
  | "updateApp"
  | "uninstallApp"
  | "listAppUpdates"
  | "getAppSecrets"
  | "updateAppSecrets"
  | "getAppTools"
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

/** The 403 an account without the hosted-apps feature gets, ending with the service's own words. */
export const NO_EARLY_ACCESS = `Hosted apps are in early access and this account does not have them. ${EARLY_ACCESS_WORDS}`;

/** The account of a caller who may use apps at all. */
function appUser(store: ReferenceStore, caller: Caller | null): string {
  const { userId } = requireCaller(caller);
  if (!store.hasAppsFeature(userId)) throw new ApiError(403, NO_EARLY_ACCESS);
  return userId;
}

// ---- scopes, apps and images the caller may reach ---------------------------------------------------

/** A scope the caller is in (apps are never public: any other handle is 404, like an unknown one). */
function memberScope(store: ReferenceStore, userId: string, handle: string): OwnerRef {
  const owner = store.resolveHandle(handle);
  if (!owner || !store.isInsider(userId, owner)) {
    throw new ApiError(404, `No scope ${handle} that you are in (apps are never public, so an unknown handle and a scope of others answer alike)`);
  }
  return owner;
}

/** A scope the caller may install apps or create images in: 403 for a member who may only read. */
function writableScope(store: ReferenceStore, userId: string, handle: string): OwnerRef {
  const owner = memberScope(store, userId, handle);
  if (!store.canCreateUnder(userId, owner)) throw new ApiError(403, `You may not change apps or app images in ${handle}: your role there only reads`);
  return owner;
}

function readableApp(store: ReferenceStore, userId: string, path: { handle: string; appId: string }): AppRecord {
  const owner = memberScope(store, userId, path.handle);
  const app = store.apps.get(path.appId);
  if (!app || app.owner.kind !== owner.kind || app.owner.id !== owner.id) throw new ApiError(404, `No app ${path.appId} under ${path.handle}`);
  return app;
}

function writableApp(store: ReferenceStore, userId: string, path: { handle: string; appId: string }): AppRecord {
  const app = readableApp(store, userId, path);
  writableScope(store, userId, path.handle);
  return app;
}

function mayReadImage(store: ReferenceStore, userId: string | null, image: AppImageRecord): boolean {
  return store.isInsider(userId, image.owner) || (image.visibility === "public" && !image.archivedAt && userId !== null);
}

function readableImage(store: ReferenceStore, userId: string, path: { handle: string; slug: string }): AppImageRecord {
  const owner = store.resolveHandle(path.handle);
  const image = owner && store.findAppImage(owner, path.slug);
  if (!image || !mayReadImage(store, userId, image)) throw new ApiError(404, `No app image ${path.handle}/${path.slug} that you may see`);
  return image;
}

function writableImage(store: ReferenceStore, userId: string, path: { handle: string; slug: string }): AppImageRecord {
  const image = readableImage(store, userId, path);
  if (!store.canCreateUnder(userId, image.owner))
    throw new ApiError(403, `You may not change ${path.handle}/${path.slug}: only its scope's members who may create things there can`);
  return image;
}

function releaseOf(image: AppImageRecord, number: number, address: string): ReleaseRecord {
  const release = image.releases.find((r) => r.number === number);
  if (!release) throw new ApiError(404, `${address} has no release ${number}`);
  return release;
}

// ---- views --------------------------------------------------------------------------------------

function ownerView(store: ReferenceStore, owner: OwnerRef): Schemas["AppOwner"] {
  return { kind: owner.kind, handle: store.handleOf(owner), name: store.ownerName(owner) };
}

function servedRelease(image: AppImageRecord): ReleaseRecord | undefined {
  return image.currentRelease === null ? undefined : image.releases.find((r) => r.number === image.currentRelease);
}

function publishedCount(image: AppImageRecord): number {
  return image.releases.filter((r) => r.publishedAt).length;
}

function imageSummary(store: ReferenceStore, image: AppImageRecord): Schemas["AppImageSummary"] {
  return {
    id: image.id,
    slug: image.slug,
    name: image.name,
    description: image.description,
    owner: ownerView(store, image.owner),
    visibility: image.visibility,
    current_release: image.currentRelease,
    released_at: servedRelease(image)?.publishedAt ?? null,
    archived_at: image.archivedAt,
    install_count: store.appsOfImage(image).length,
    created_at: image.createdAt,
    updated_at: image.updatedAt,
  };
}

function imageView(store: ReferenceStore, image: AppImageRecord): Schemas["AppImage"] {
  const served = servedRelease(image);
  return {
    ...imageSummary(store, image),
    about: image.about,
    manifest: served?.manifest ?? null,
    api_grant: served?.apiGrant ?? null,
    config_defaults: served?.configDefaults ?? null,
    release_count: publishedCount(image),
  };
}

function releaseSummary(image: AppImageRecord, release: ReleaseRecord): Schemas["AppImageReleaseSummary"] {
  return {
    number: release.number,
    created_at: release.createdAt,
    asset_count: release.assets.length,
    current: image.currentRelease === release.number,
    published_at: release.publishedAt,
  };
}

function releaseView(store: ReferenceStore, image: AppImageRecord, release: ReleaseRecord): Schemas["AppImageRelease"] {
  const deployer = release.deployedBy ? store.users.get(release.deployedBy) : undefined;
  return {
    ...releaseSummary(image, release),
    assets: release.assets.map((a) => ({ name: a.name, key: a.key, size: a.size })),
    schema_sha: release.schemaSha,
    migrations: release.migrations,
    manifest: release.manifest,
    tools: release.tools,
    api_grant: release.apiGrant,
    config_defaults: release.configDefaults,
    deployed_by: deployer?.username ? "@" + deployer.username : null,
  };
}

function imageOfApp(store: ReferenceStore, app: AppRecord): AppImageRecord | undefined {
  return app.imageId ? store.appImages.get(app.imageId) : undefined;
}

function appSummary(store: ReferenceStore, app: AppRecord): Schemas["AppSummary"] {
  const image = imageOfApp(store, app);
  return {
    id: app.id,
    name: app.name,
    owner: ownerView(store, app.owner),
    image: image
      ? { handle: store.handleOf(image.owner), slug: image.slug, name: image.name, description: image.description, current_release: image.currentRelease }
      : null,
    // Schema changes always apply here, so an app serves what its image serves.
    current_release: image?.currentRelease ?? null,
    released_at: (image && servedRelease(image)?.publishedAt) ?? null,
    pending_decisions: 0,
    created_at: app.createdAt,
    updated_at: app.updatedAt,
  };
}

function secretViews(store: ReferenceStore, app: AppRecord): Schemas["AppSecret"][] {
  const image = imageOfApp(store, app);
  const declared = new Map((image && servedRelease(image)?.manifest.secrets.map((s) => [s.name, s] as const)) ?? []);
  return [...app.secrets.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, secret]) => ({ name, required: declared.get(name)?.required ?? false, pageUsable: secret.pageUsable }));
}

function appView(store: ReferenceStore, app: AppRecord): Schemas["App"] {
  const image = imageOfApp(store, app);
  return {
    ...appSummary(store, app),
    config: app.config,
    api_grant: (image && servedRelease(image)?.apiGrant) ?? null,
    secrets: secretViews(store, app),
    release_count: image ? publishedCount(image) : 0,
  };
}

function newestFirst<T extends { createdAt: string; id: string }>(items: T[]): T[] {
  return items.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

function archivedFilter(value: "true" | "false" | undefined): (image: AppImageRecord) => boolean {
  return value === "true" ? (i) => i.archivedAt !== null : (i) => i.archivedAt === null;
}

function asObject(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function sealOrRefuse(store: ReferenceStore, value: string): Buffer {
  const sealed = store.seal(value);
  if (!sealed) throw new ApiError(503, "This sandbox has no sealing key, so a secret written now could never be used: start it with one");
  return sealed;
}

// ---- the operations ---------------------------------------------------------------------------

export const appHandlers: Pick<Implementations, AppOperation> = {
  listAllApps: ({ store, caller, query }) => {
    const userId = appUser(store, caller);
    const apps = newestFirst([...store.apps.values()].filter((a) => store.isInsider(userId, a.owner)));
    const page = paginate(apps, query);
    return { status: 200, body: { ...page, data: page.data.map((a) => appSummary(store, a)) } };
  },

  listApps: ({ store, caller, path, query }) => {
    const userId = appUser(store, caller);
    const owner = memberScope(store, userId, path.handle);
    const apps = newestFirst([...store.apps.values()].filter((a) => a.owner.kind === owner.kind && a.owner.id === owner.id));
    const page = paginate(apps, query);
    return { status: 200, body: { ...page, data: page.data.map((a) => appSummary(store, a)) } };
  },

  createApp: ({ store, caller, path, body }) => {
    const userId = appUser(store, caller);
    const owner = writableScope(store, userId, path.handle);
    const image = readableImage(store, userId, body.image);
    const address = `${body.image.handle}/${body.image.slug}`;
    if (image.archivedAt) throw new ApiError(409, `${address} is archived: it takes no new installs`);
    const served = servedRelease(image);
    if (!served) throw new ApiError(409, `${address} has no published release yet: deploy one before installing it`);
    const secrets = new Map<string, SealedSecret>();
    const given = Object.entries(body.secrets ?? {});
    if (given.length && !store.sealingKey) {
      // createApp declares no 503: the secrets are refused as part of the request instead.
      throw invalid({ secrets: ["cannot be stored: this sandbox has no sealing key. Install without secrets, or start the sandbox with one"] });
    }
    for (const [name, value] of given) secrets.set(name, { sealed: sealOrRefuse(store, value), pageUsable: false });
    const at = store.now();
    const app: AppRecord = {
      id: randomUUID(),
      owner,
      imageId: image.id,
      name: body.name ?? image.name,
      config: { ...asObject(served.configDefaults), ...asObject(body.config) },
      secrets,
      createdAt: at,
      updatedAt: at,
    };
    store.apps.set(app.id, app);
    return { status: 201, body: appView(store, app) };
  },

  getApp: ({ store, caller, path }) => {
    const userId = appUser(store, caller);
    return { status: 200, body: appView(store, readableApp(store, userId, path)) };
  },

  updateApp: ({ store, caller, path, body }) => {
    const userId = appUser(store, caller);
    const app = writableApp(store, userId, path);
    app.name = body.name;
    app.updatedAt = store.now();
    return { status: 200, body: appView(store, app) };
  },

  uninstallApp: ({ store, caller, path }) => {
    const userId = appUser(store, caller);
    const app = writableApp(store, userId, path);
    store.apps.delete(app.id);
    return { status: 204, body: undefined };
  },

  listAppUpdates: ({ store, caller, path, query }) => {
    const userId = appUser(store, caller);
    const app = readableApp(store, userId, path);
    const image = imageOfApp(store, app);
    const ran = image ? store.releasesRunBy(app, image) : new Set<number>();
    const updates = [...(image?.releases ?? [])]
      .sort((a, b) => b.number - a.number)
      .map((r) => ({ version: r.number, published_at: r.publishedAt, status: ran.has(r.number) ? ("installed" as const) : ("pending" as const), error: null }));
    return { status: 200, body: paginate(updates, query) };
  },

  getAppSecrets: ({ store, caller, path }) => {
    const userId = appUser(store, caller);
    return { status: 200, body: { secrets: secretViews(store, readableApp(store, userId, path)) } };
  },

  updateAppSecrets: ({ store, caller, path, body }) => {
    const userId = appUser(store, caller);
    const app = writableApp(store, userId, path);
    if (!store.sealingKey) throw new ApiError(503, "This sandbox has no sealing key, so a secret written now could never be used: nothing was changed");
    // Worked out on a copy and swapped in at the end: the whole request lands, or none of it.
    const next = new Map(app.secrets);
    for (const [name, change] of Object.entries(body.secrets)) {
      const current = next.get(name);
      if (change === null) next.delete(name);
      else if (typeof change === "string") next.set(name, { sealed: sealOrRefuse(store, change), pageUsable: current?.pageUsable ?? false });
      else if (change.value !== undefined)
        next.set(name, { sealed: sealOrRefuse(store, change.value), pageUsable: change.pageUsable ?? current?.pageUsable ?? false });
      else if (current && change.pageUsable !== undefined) next.set(name, { ...current, pageUsable: change.pageUsable });
    }
    app.secrets = next;
    app.updatedAt = store.now();
    return { status: 200, body: { secrets: secretViews(store, app) } };
  },

  getAppTools: ({ store, caller, path }) => {
    const userId = appUser(store, caller);
    const image = imageOfApp(store, readableApp(store, userId, path));
    return { status: 200, body: { tools: (image && servedRelease(image)?.tools) ?? [] } };
  },

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
