// Hosted apps ("flock", early access on the service): app images, their releases and the files
// those ship, apps installed from an image, and the apps' sealed secrets. The rules that do not
// depend on HTTP live here; api/handlers/apps.ts and api/handlers/app-uploads.ts are the two doors.
import { createCipheriv, createHash, randomBytes, randomUUID } from "node:crypto";
import type { OwnerRef } from "./records.js";
import { DevicesStore } from "./devices.js";
import type { StoreOptions } from "./types.js";

/**
 * What the service answers (403) to an account without the `flock_apps` early-access feature, as its
 * official CLI shows it.
 */
export const EARLY_ACCESS_WORDS = "Request early access at https://form.reduck.ai or contact Reduck at contact@reduck.ai";

/** The early-access feature `GET /api/me` lists in `experimental_features` for accounts that have apps. */
export const APPS_FEATURE = "flock_apps";

/** How long a presigned upload URL stays usable unless the store is told otherwise: 15 minutes. */
export const DEFAULT_UPLOAD_EXPIRY_SECONDS = 900;

/** Files per release and bytes per file the service accepts (its description's limits). */
export const MAX_RELEASE_FILES = 256;
export const MAX_RELEASE_FILE_BYTES = 64 * 1024 * 1024;

/** Where a release's file lives once it arrived: bytes held in memory (seeded) or a file in the store's scratch folder. */
export type StoredBytes = { bytes: Uint8Array } | { path: string };

export interface AssetRecord {
  name: string;
  size: number;
  sha256: string;
  /** The storage key the release lists. */
  key: string;
  /** Set once the file arrived whole and matched its size and SHA-256. */
  stored: StoredBytes | null;
}

export interface SecretDeclaration {
  name: string;
  label: string;
  description: string;
  required: boolean;
  page: boolean;
}

export interface ToolDeclaration {
  task: string;
  description: string;
  inputSchema: unknown;
  outputSchema: unknown;
}

/** A release's install contract, as the API shows it (manifest.json normalised). */
export interface ManifestView {
  secrets: SecretDeclaration[];
  settings: unknown;
  hooks: { init: string | null; newUser: string | null };
  scripts: string[];
}

export interface ReleaseRecord {
  number: number;
  createdAt: string;
  /** When every file had arrived and the release was published; null until then. */
  publishedAt: string | null;
  deployedBy: string | null;
  assets: AssetRecord[];
  manifest: ManifestView;
  tools: ToolDeclaration[];
  apiGrant: unknown;
  configDefaults: unknown;
  migrations: Array<{ name: string; sha: string }>;
  schemaSha: string | null;
}

export interface AppImageRecord {
  id: string;
  owner: OwnerRef;
  slug: string;
  name: string;
  description: string;
  about: string;
  visibility: "private" | "public";
  /** The release every app of the image serves; null before the first publish. */
  currentRelease: number | null;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
  releases: ReleaseRecord[];
  /** Each change of the served release (publish, rollback), in order: what the image's apps ran. */
  served: Array<{ release: number; at: string }>;
}

export interface SealedSecret {
  /** AES-256-GCM under the store's sealing key: iv, tag, ciphertext. Never answered. */
  sealed: Buffer;
  pageUsable: boolean;
}

export interface AppRecord {
  id: string;
  owner: OwnerRef;
  /** null once the image is gone. */
  imageId: string | null;
  name: string;
  config: Record<string, unknown>;
  secrets: Map<string, SealedSecret>;
  createdAt: string;
  updatedAt: string;
}

/** A presigned upload: one file of one release, usable once, until it expires. */
export interface UploadTicket {
  token: string;
  imageId: string;
  release: number;
  name: string;
  /** Date.now() after which the URL is refused. */
  expiresAt: number;
  /** The headers the upload must carry, exactly. */
  headers: Record<string, string>;
  /** Set by the upload that used it. */
  usedAt: string | null;
}

/** The store's hosted apps layer. */
export abstract class AppsStore extends DevicesStore {
  readonly appImages = new Map<string, AppImageRecord>();
  readonly apps = new Map<string, AppRecord>();
  readonly uploadTickets = new Map<string, UploadTicket>();
  /**
   * The key secrets are sealed under; null: none, so secrets cannot be written (503). Settable at
   * any point, as `createStore({ sealingKey: null })` or `npm run sandbox -- --sealing-key off`.
   */
  sealingKey: Buffer | null;
  /** `expires_in` of the presigned uploads a release start hands out, in seconds. */
  uploadExpirySeconds: number;

  constructor(options: StoreOptions = {}) {
    super(options);
    this.sealingKey =
      options.sealingKey === null
        ? null
        : createHash("sha256")
            .update(options.sealingKey ?? randomBytes(32))
            .digest();
    this.uploadExpirySeconds = options.uploadExpirySeconds ?? DEFAULT_UPLOAD_EXPIRY_SECONDS;
  }

  /** Gives the demo account hosted apps (the early-access feature), or takes them away. */
  setDemoApps(on: boolean): void {
    const user = this.users.get(this.demo.userId)!;
    user.experimentalFeatures = user.experimentalFeatures.filter((f) => f !== APPS_FEATURE);
    if (on) user.experimentalFeatures.push(APPS_FEATURE);
  }

  hasAppsFeature(userId: string): boolean {
    return this.users.get(userId)?.experimentalFeatures.includes(APPS_FEATURE) ?? false;
  }

  // ---- images and releases ----------------------------------------------------------------------

  addAppImage(input: {
    owner: OwnerRef;
    slug: string;
    name: string;
    description?: string;
    about?: string;
    visibility?: "private" | "public";
    id?: string;
    createdAt?: string;
  }): AppImageRecord {
    const at = input.createdAt ?? this.now();
    const image: AppImageRecord = {
      id: input.id ?? randomUUID(),
      owner: input.owner,
      slug: input.slug,
      name: input.name,
      description: input.description ?? "",
      about: input.about ?? "",
      visibility: input.visibility ?? "private",
      currentRelease: null,
      archivedAt: null,
      createdAt: at,
      updatedAt: at,
      releases: [],
      served: [],
    };
    this.appImages.set(image.id, image);
    return image;
  }

  findAppImage(owner: OwnerRef, slug: string): AppImageRecord | undefined {
    return [...this.appImages.values()].find((i) => i.owner.kind === owner.kind && i.owner.id === owner.id && i.slug === slug);
  }

  release(image: AppImageRecord, number: number): ReleaseRecord | undefined {
    return image.releases.find((r) => r.number === number);
  }

  /** Reserves the next release number with its files (none arrived yet). */
  addRelease(image: AppImageRecord, input: Omit<ReleaseRecord, "number" | "createdAt" | "publishedAt">): ReleaseRecord {
    const release: ReleaseRecord = { ...input, number: image.releases.length + 1, createdAt: this.now(), publishedAt: null };
    image.releases.push(release);
    image.updatedAt = release.createdAt;
    return release;
  }

  /** Makes `number` the served release of the image (its apps follow at once). */
  serveRelease(image: AppImageRecord, number: number): void {
    if (image.currentRelease === number) return;
    const at = this.now();
    image.currentRelease = number;
    image.served.push({ release: number, at });
    image.updatedAt = at;
  }

  /** Hands out a presigned upload for one file of a release. */
  addUploadTicket(image: AppImageRecord, release: ReleaseRecord, asset: AssetRecord, headers: Record<string, string>): UploadTicket {
    const ticket: UploadTicket = {
      token: randomBytes(24).toString("hex"),
      imageId: image.id,
      release: release.number,
      name: asset.name,
      expiresAt: Date.now() + this.uploadExpirySeconds * 1000,
      headers,
      usedAt: null,
    };
    this.uploadTickets.set(ticket.token, ticket);
    return ticket;
  }

  // ---- installed apps ---------------------------------------------------------------------------

  appsOfImage(image: AppImageRecord): AppRecord[] {
    return [...this.apps.values()].filter((a) => a.imageId === image.id);
  }

  /** Release numbers an app has run: the one served when it was installed, and every one served since. */
  releasesRunBy(app: AppRecord, image: AppImageRecord): Set<number> {
    const ran = new Set<number>();
    let atInstall: number | null = null;
    for (const change of image.served) {
      if (change.at <= app.createdAt) atInstall = change.release;
      else ran.add(change.release);
    }
    if (atInstall !== null) ran.add(atInstall);
    return ran;
  }

  /** Seals a secret's value under the store's key; null when it has none. */
  seal(value: string): Buffer | null {
    if (!this.sealingKey) return null;
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.sealingKey, iv);
    const sealed = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
  }
}

/** manifest.json's install contract as a release start sends it (see startAppImageRelease's body). */
export interface AuthoredManifest {
  secrets?: Record<string, { label?: string; description?: string; required?: boolean; page?: boolean }>;
  settings?: Record<string, unknown>;
  hooks?: { init?: string; newUser?: string };
  scripts?: string[];
}

/** The contract as the API answers it: every secret declared with its defaults, absent parts empty. */
export function manifestView(manifest: AuthoredManifest | undefined): ManifestView {
  return {
    secrets: Object.entries(manifest?.secrets ?? {}).map(([name, s]) => ({
      name,
      label: s.label ?? name,
      description: s.description ?? "",
      required: s.required ?? true,
      page: s.page ?? false,
    })),
    settings: manifest?.settings ?? null,
    hooks: { init: manifest?.hooks?.init ?? null, newUser: manifest?.hooks?.newUser ?? null },
    scripts: manifest?.scripts ?? [],
  };
}

/** Tools as the API answers them: schemas the author left out are null. */
export function toolViews(tools: Array<{ task: string; description: string; inputSchema?: unknown; outputSchema?: unknown }> | undefined): ToolDeclaration[] {
  return (tools ?? []).map((t) => ({ task: t.task, description: t.description, inputSchema: t.inputSchema ?? null, outputSchema: t.outputSchema ?? null }));
}

/** The storage key a release's file is listed under. */
export function assetKey(image: AppImageRecord, release: number, name: string): string {
  return `app-images/${image.id}/releases/${release}/${name}`;
}
