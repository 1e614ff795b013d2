// App images, releases and apps as the API answers them, and small helpers the app operations share.
import type { components } from "../../contract/openapi-types.js";
import { ApiError } from "../errors.js";
import type { OwnerRef } from "../../store/records.js";
import type { SandboxStore } from "../../store/store.js";
import type { AppImageRecord, AppRecord, ReleaseRecord } from "../../store/apps.js";

type Schemas = components["schemas"];

export function ownerView(store: SandboxStore, owner: OwnerRef): Schemas["AppOwner"] {
  return { kind: owner.kind, handle: store.handleOf(owner), name: store.ownerName(owner) };
}

export function servedRelease(image: AppImageRecord): ReleaseRecord | undefined {
  return image.currentRelease === null ? undefined : image.releases.find((r) => r.number === image.currentRelease);
}

export function publishedCount(image: AppImageRecord): number {
  return image.releases.filter((r) => r.publishedAt).length;
}

export function imageSummary(store: SandboxStore, image: AppImageRecord): Schemas["AppImageSummary"] {
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

export function imageView(store: SandboxStore, image: AppImageRecord): Schemas["AppImage"] {
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

export function releaseSummary(image: AppImageRecord, release: ReleaseRecord): Schemas["AppImageReleaseSummary"] {
  return {
    number: release.number,
    created_at: release.createdAt,
    asset_count: release.assets.length,
    current: image.currentRelease === release.number,
    published_at: release.publishedAt,
  };
}

export function releaseView(store: SandboxStore, image: AppImageRecord, release: ReleaseRecord): Schemas["AppImageRelease"] {
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

export function imageOfApp(store: SandboxStore, app: AppRecord): AppImageRecord | undefined {
  return app.imageId ? store.appImages.get(app.imageId) : undefined;
}

export function appSummary(store: SandboxStore, app: AppRecord): Schemas["AppSummary"] {
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

export function secretViews(store: SandboxStore, app: AppRecord): Schemas["AppSecret"][] {
  const image = imageOfApp(store, app);
  const declared = new Map((image && servedRelease(image)?.manifest.secrets.map((s) => [s.name, s] as const)) ?? []);
  return [...app.secrets.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, secret]) => ({ name, required: declared.get(name)?.required ?? false, pageUsable: secret.pageUsable }));
}

export function appView(store: SandboxStore, app: AppRecord): Schemas["App"] {
  const image = imageOfApp(store, app);
  return {
    ...appSummary(store, app),
    config: app.config,
    api_grant: (image && servedRelease(image)?.apiGrant) ?? null,
    secrets: secretViews(store, app),
    release_count: image ? publishedCount(image) : 0,
  };
}

export function newestFirst<T extends { createdAt: string; id: string }>(items: T[]): T[] {
  return items.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

export function archivedFilter(value: "true" | "false" | undefined): (image: AppImageRecord) => boolean {
  return value === "true" ? (i) => i.archivedAt !== null : (i) => i.archivedAt === null;
}

export function asObject(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function sealOrRefuse(store: SandboxStore, value: string): Buffer {
  const sealed = store.seal(value);
  if (!sealed) throw new ApiError(503, "This sandbox has no sealing key, so a secret written now could never be used: start it with one");
  return sealed;
}
