// The hosted-apps catalogue every fresh store starts with: one public image, its first release
// published, its two small files held in memory.
import { createHash } from "node:crypto";
import type { OwnerRef } from "./records.js";
import { assetKey, manifestView, toolViews, type AppsStore } from "./apps.js";

const FILES: Record<string, string> = {
  "index.html": '<!doctype html>\n<title>Guestbook</title>\n<script type="module" src="app.js"></script>\n<main id="entries"></main>\n',
  "app.js": 'document.getElementById("entries").textContent = "Sign the guestbook.";\n',
};

export function seedAppCatalogue(store: AppsStore, id: string, owner: OwnerRef, deployedBy: string, createdAt: string): void {
  const image = store.addAppImage({
    id,
    owner,
    slug: "guestbook",
    name: "Guestbook",
    description: "Visitors leave a line; you read them.",
    about: "A small app from the catalogue: a page that keeps a list of entries in its own database.",
    visibility: "public",
    createdAt,
  });
  const release = store.addRelease(image, {
    deployedBy,
    assets: Object.entries(FILES).map(([name, text]) => {
      const bytes = new TextEncoder().encode(text);
      return { name, size: bytes.byteLength, sha256: createHash("sha256").update(bytes).digest("hex"), key: assetKey(image, 1, name), stored: { bytes } };
    }),
    manifest: manifestView({
      secrets: { NOTIFY_TOKEN: { label: "Notification token", description: "Optional: a token for the notification service.", required: false } },
      settings: { type: "object", properties: { title: { type: "string", default: "Guestbook" } } },
      hooks: { init: "setup" },
    }),
    tools: toolViews([
      {
        task: "sign",
        description: "Adds one entry to the guestbook.",
        inputSchema: { type: "object", properties: { line: { type: "string" } }, required: ["line"] },
      },
    ]),
    apiGrant: {},
    configDefaults: { title: "Guestbook" },
    migrations: [],
    schemaSha: null,
  });
  release.publishedAt = store.now();
  store.serveRelease(image, release.number);
}
