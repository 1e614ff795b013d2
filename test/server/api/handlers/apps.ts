// Hosted apps installed from an image: listing, install with config and secrets, rename, uninstall,
// the image's releases as this app saw them, its secrets (sealed, never answered) and its tools.
// App images and their releases are handlers/app-images.ts; access rules handlers/app-access.ts.
import { randomUUID } from "node:crypto";
import { ApiError, invalid } from "../errors.js";
import type { AppRecord, SealedSecret } from "../../store/apps.js";
import { appUser, memberScope, readableApp, readableImage, writableApp, writableScope } from "./app-access.js";
import { appSummary, appView, asObject, imageOfApp, newestFirst, sealOrRefuse, secretViews, servedRelease } from "./app-views.js";
import { paginate } from "./shared.js";
import type { Implementations } from "./types.js";

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
  | "getAppTools";

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
};
