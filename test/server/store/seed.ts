// The data every fresh store starts with. Ids of seeded records are fixed (SEED_IDS) so tests can
// name them; credentials are random per store so nothing depends on a well-known secret.
import { exampleSource, loadCatalogue } from "./catalogue.js";
import { seedSandboxScripts } from "./sandbox-scripts.js";
import { MCP_AUDIENCE } from "./records.js";
import type { AppsStore } from "./apps.js";
import { seedAppCatalogue } from "./app-seed.js";
import type { DemoCredentials, RecordRunInput, StoreOptions } from "./types.js";

/** A readable, valid (version 4, variant 8) uuid: group 0x1 item 2 -> 00000000-0000-4000-8001-000000000002. */
function seedUuid(group: number, item: number): string {
  return `00000000-0000-4000-8${group.toString(16).padStart(3, "0")}-${item.toString(16).padStart(12, "0")}`;
}

/** Ids of the seeded records, stable across stores. */
export const SEED_IDS = {
  users: { demo: seedUuid(1, 1), alice: seedUuid(1, 2), staff: seedUuid(1, 3), casey: seedUuid(1, 4) },
  projects: { reduck: seedUuid(2, 1), acme: seedUuid(2, 2), partners: seedUuid(2, 3) },
  scripts: {
    /** @demo/example.com/get_title: private, versions 1 and 2 promoted, 2 current. */
    getTitle: seedUuid(3, 1),
    /** @demo/news.ycombinator.com/top_stories: public. */
    topStories: seedUuid(3, 2),
    /** @demo/example.com/old_scraper: private, archived. */
    oldScraper: seedUuid(3, 3),
    /** acme/crm.acme.test/export_contacts: private project script (demo is the project's owner). */
    acmeExport: seedUuid(3, 4),
    /** @alice/example.com/secret_notes: private to alice. */
    aliceSecret: seedUuid(3, 5),
    /** @alice/example.com/public_search: public. */
    alicePublic: seedUuid(3, 6),
    /** partners/partner.example/list_orders: private project script (demo is a viewer). */
    partnersOrders: seedUuid(3, 7),
  },
  versions: {
    getTitleV1: seedUuid(4, 1),
    getTitleV2: seedUuid(4, 2),
    topStoriesV1: seedUuid(4, 3),
    oldScraperV1: seedUuid(4, 4),
    acmeExportV1: seedUuid(4, 5),
    aliceSecretV1: seedUuid(4, 6),
    alicePublicV1: seedUuid(4, 7),
    partnersOrdersV1: seedUuid(4, 8),
  },
  runs: {
    /** demo, success, has a trace. */
    success: seedUuid(5, 1),
    /** demo, error on a managed browser, has a trace. */
    error: seedUuid(5, 2),
    /** demo, still running (cannot be deleted). */
    running: seedUuid(5, 3),
    /** demo, queued (cannot be deleted). */
    queued: seedUuid(5, 4),
    /** demo, cancelled. */
    cancelled: seedUuid(5, 5),
    /** demo, success of reduck/mail.google.com/send_email, no trace recorded. */
    sendEmail: seedUuid(5, 6),
    /** alice's run: invisible to demo. */
    alice: seedUuid(5, 7),
  },
  devices: { demo: seedUuid(6, 1), alice: seedUuid(6, 2) },
  connectors: { demoGmail: seedUuid(7, 1), aliceLinkedin: seedUuid(7, 2) },
  /** reduck/guestbook: a public app image in the catalogue, release 1 published (see store/app-seed.ts). */
  appImages: { guestbook: seedUuid(10, 1) },
} as const;

const HOUR = 3_600_000;

const TITLE_INPUT = {
  type: "object",
  properties: { url: { type: "string", description: "Page to read." } },
  required: ["url"],
  additionalProperties: false,
};
const TITLE_OUTPUT = { type: "object", properties: { title: { type: "string" } }, required: ["title"] };

/** A trace of steps that passed, taking 120 ms, 160 ms...; `failure` makes the last one fail, with that error, taking `ms`. */
function trace(steps: string[], failure?: { error: string; ms: number }): unknown {
  return {
    steps: steps.map((action, index) =>
      failure && index === steps.length - 1
        ? { index, action, ok: false, duration_ms: failure.ms, error: failure.error }
        : { index, action, ok: true, duration_ms: 120 + index * 40 },
    ),
  };
}

/** Fills a new store and returns the demo credentials. Called by the SandboxStore constructor. */
export function seedStore(store: AppsStore, options: StoreOptions): DemoCredentials {
  const t0 = Date.now();
  const at = (hoursAgo: number) => new Date(t0 - hoursAgo * HOUR).toISOString();
  const ids = SEED_IDS;

  // Accounts.
  // demo and alice have hosted apps (the `flock_apps` early-access feature); casey does not.
  const apps = { experimentalFeatures: ["flock_apps" as const] };
  const demo = store.addUser({ id: ids.users.demo, username: "demo", name: "Demo User", email: "demo@example.com", ...apps });
  const alice = store.addUser({ id: ids.users.alice, username: "alice", name: "Alice Martin", email: "alice@example.com", ...apps });
  const casey = store.addUser({ id: ids.users.casey, username: "casey", name: "Casey Quinn", email: "casey@example.com" });
  const staff = store.addUser({ id: ids.users.staff, username: "staff", name: "Reduck Staff", email: "staff@reduck.ai", role: "admin" });

  // Projects: the official catalogue (demo is not a member, so it is write-locked for demo),
  // one demo owns (alice a member), one where demo may only read.
  store.addProject({ id: ids.projects.reduck, handle: "reduck", name: "Reduck AI", official: true, members: { [staff.id]: "owner" } });
  store.addProject({ id: ids.projects.acme, handle: "acme", name: "Acme Corp", members: { [demo.id]: "owner", [alice.id]: "member" } });
  store.addProject({ id: ids.projects.partners, handle: "partners", name: "Partners Guild", members: { [alice.id]: "owner", [demo.id]: "viewer" } });

  // The official catalogue: one promoted public version per contract.
  loadCatalogue().forEach((entry, index) => {
    store.addScript({
      id: seedUuid(8, index + 1),
      versionId: seedUuid(9, index + 1),
      handle: "reduck",
      host: entry.host,
      slug: entry.slug,
      name: entry.name,
      description: entry.description,
      visibility: "public",
      loggedIn: entry.logged_in,
      sideEffects: entry.side_effects,
      inputSchema: entry.input_schema,
      outputSchema: entry.output_schema,
      // Each runs its source in example-scripts (test/server/store/catalogue-scripts.test.ts holds every one to that).
      ...exampleSource(entry.host, entry.slug, { content: entry.content, language: entry.language }),
      note: "Published to the official catalogue",
      createdAt: at(24 * 60 - index),
    });
  });

  // Demo's own scripts.
  const getTitle = store.addScript({
    id: ids.scripts.getTitle,
    versionId: ids.versions.getTitleV1,
    handle: "@demo",
    host: "example.com",
    slug: "get_title",
    name: "Get page title",
    description: "Opens a page and returns its title.",
    content: "await page.goto(args.url);\nreturn { title: await page.title() };\n",
    inputSchema: TITLE_INPUT,
    outputSchema: TITLE_OUTPUT,
    note: "First version",
    createdAt: at(24 * 10),
  });
  store.addVersion(getTitle.id, {
    id: ids.versions.getTitleV2,
    draft: false,
    content: "await page.goto(args.url);\nreturn { title: (await page.title()).trim() };\n",
    note: "Trim whitespace around the title",
    createdAt: at(24 * 9),
  });
  getTitle.updatedAt = at(24 * 9);
  store.addScript({
    id: ids.scripts.topStories,
    versionId: ids.versions.topStoriesV1,
    handle: "@demo",
    host: "news.ycombinator.com",
    slug: "top_stories",
    name: "Hacker News top stories",
    description: "Lists the stories on the Hacker News front page with their scores.",
    visibility: "public",
    content: "await page.goto('https://news.ycombinator.com');\nreturn { stories: [] };\n",
    outputSchema: { type: "object", properties: { stories: { type: "array" } } },
    note: "First version",
    createdAt: at(24 * 8),
  });
  store.addScript({
    id: ids.scripts.oldScraper,
    versionId: ids.versions.oldScraperV1,
    handle: "@demo",
    host: "example.com",
    slug: "old_scraper",
    name: "Old scraper",
    description: "A retired scraper, kept in the archive.",
    archived: true,
    createdAt: at(24 * 30),
    updatedAt: at(24 * 20),
  });
  store.addScript({
    id: ids.scripts.acmeExport,
    versionId: ids.versions.acmeExportV1,
    handle: "acme",
    host: "crm.acme.test",
    slug: "export_contacts",
    name: "Export CRM contacts",
    description: "Exports the contact list of the Acme CRM as JSON.",
    loggedIn: true,
    createdBy: demo.id,
    createdAt: at(24 * 7),
  });

  // Alice's scripts and a project demo can only read.
  store.addScript({
    id: ids.scripts.aliceSecret,
    versionId: ids.versions.aliceSecretV1,
    handle: "@alice",
    host: "example.com",
    slug: "secret_notes",
    name: "Secret notes",
    description: "Alice's private notes scraper.",
    createdAt: at(24 * 6),
  });
  store.addScript({
    id: ids.scripts.alicePublic,
    versionId: ids.versions.alicePublicV1,
    handle: "@alice",
    host: "example.com",
    slug: "public_search",
    name: "Search example.com",
    description: "Searches example.com and returns the result links.",
    visibility: "public",
    createdAt: at(24 * 5),
  });
  store.addScript({
    id: ids.scripts.partnersOrders,
    versionId: ids.versions.partnersOrdersV1,
    handle: "partners",
    host: "partner.example",
    slug: "list_orders",
    name: "List partner orders",
    description: "Lists the open orders in the partner portal.",
    createdAt: at(24 * 4),
  });

  // Host readmes: one on the official catalogue (public, since reduck has public scripts there), one of demo's.
  const reduck = store.resolveHandle("reduck")!;
  store.setReadme(reduck, "mail.google.com", "Gmail scripts need a signed-in Google account. Sending is rate limited to one email every 10 seconds.");
  store.setReadme(store.resolveHandle("@demo")!, "example.com", "example.com has no login; any page works as a target.");

  // Runs. A finished run: started hoursAgo, ended tookMs later. Most are demo's runs of get_title.
  const ran = (hoursAgo: number, tookMs: number) => ({ startedAt: at(hoursAgo), finishedAt: new Date(t0 - hoursAgo * HOUR + tookMs).toISOString() });
  const demoTitleRun = (run: Omit<RecordRunInput, "userId" | "scriptId">) => store.recordRun({ userId: demo.id, scriptId: getTitle.id, ...run });
  const sendEmail = store.findScriptByAddress("reduck", "mail.google.com", "send_email")!;
  demoTitleRun({
    id: ids.runs.success,
    args: { url: "https://example.com" },
    browser: { type: "extension" },
    source: "cli",
    status: "success",
    result: { title: "Example Domain" },
    ...ran(2, 4_200),
    trace: trace(["goto https://example.com", "read title", "return"]),
  });
  demoTitleRun({
    id: ids.runs.error,
    args: { url: "https://example.com/missing" },
    browser: { type: "managed", region: "eu-central-1", country: "de" },
    source: "rest",
    status: "error",
    error: "Error: page.title: Timeout 30000ms exceeded\n  at line 2: return { title: (await page.title()).trim() };",
    // The steps take 120 ms and 30 s (the timeout) of the run's 30.4 s.
    ...ran(3, 30_400),
    trace: trace(["goto https://example.com/missing", "read title (timed out)"], { error: "page.title: Timeout 30000ms exceeded", ms: 30_000 }),
  });
  demoTitleRun({
    id: ids.runs.running,
    args: { url: "https://example.com/slow" },
    browser: { type: "extension" },
    source: "mcp",
    status: "running",
    startedAt: at(0.1),
    trace: trace(["goto https://example.com/slow"]),
  });
  demoTitleRun({
    id: ids.runs.queued,
    args: { url: "https://example.com/later" },
    browser: { type: "managed", region: "us-east-1", country: "us" },
    source: "rest",
    status: "queued",
    startedAt: at(0.05),
  });
  demoTitleRun({
    id: ids.runs.cancelled,
    args: { url: "https://example.com" },
    browser: { type: "extension" },
    source: "cli",
    status: "cancelled",
    ...ran(24, 2_000),
  });
  store.recordRun({
    id: ids.runs.sendEmail,
    userId: demo.id,
    scriptId: sendEmail.id,
    args: { to: "me@example.com", subject: "Hello" },
    browser: { type: "extension" },
    source: "cli",
    status: "success",
    result: { sent: true, to: ["me@example.com"], cc: [], bcc: [], subject: "Hello" },
    ...ran(48, 9_000),
  });
  store.recordRun({
    id: ids.runs.alice,
    userId: alice.id,
    scriptId: ids.scripts.alicePublic,
    args: { q: "domains" },
    browser: { type: "extension" },
    source: "cli",
    status: "success",
    result: { links: [] },
    ...ran(5, 3_000),
    trace: trace(["goto https://example.com", "search"]),
  });

  // Devices: demo has exactly one paired extension device that can read local files.
  store.addDevice({ id: ids.devices.demo, userId: demo.id, name: "Google Chrome — macOS", fileAccess: true, reachable: true, createdAt: at(24 * 15) });
  store.addDevice({ id: ids.devices.alice, userId: alice.id, name: "Brave — Linux", browser: "Brave", os: "Linux", createdAt: at(24 * 12) });

  // Connectors: demo has mail.google.com only.
  const expires = Math.floor(t0 / 1000) + 30 * 24 * 3600;
  store.putConnector(
    demo.id,
    "mail.google.com",
    [
      { name: "GMAIL_AT", value: "demo-gmail-session", domain: "mail.google.com", path: "/mail", expires, httpOnly: true, secure: true, sameSite: "Lax" },
      { name: "SID", value: "demo-google-sid", domain: ".google.com", path: "/", expires, httpOnly: true, secure: true },
    ],
    ids.connectors.demoGmail,
  );
  store.putConnector(
    alice.id,
    "linkedin.com",
    [{ name: "li_at", value: "alice-linkedin", domain: ".linkedin.com", path: "/", expires, httpOnly: true, secure: true, sameSite: "None" }],
    ids.connectors.aliceLinkedin,
  );

  // The hosted-apps catalogue: one public image that anyone with apps may install.
  seedAppCatalogue(store, ids.appImages.guestbook, store.resolveHandle("reduck")!, staff.id, at(24 * 20));

  // Sandbox-only scripts (a slow run, a run with no outcome): unlisted, see sandbox-scripts.ts.
  seedSandboxScripts(store, at(24 * 30));

  // Credentials.
  return {
    apiKey: store.addApiKey(demo.id, options.apiKey),
    oauthToken: store.addOAuthToken({ userId: demo.id }),
    mcpToken: store.addOAuthToken({ userId: demo.id, audience: MCP_AUDIENCE }),
    readOnlyToken: store.addOAuthToken({ userId: demo.id, scopes: ["script:read"] }),
    userId: demo.id,
    handle: "@demo",
    otherUserApiKey: store.addApiKey(alice.id),
    noAppsApiKey: store.addApiKey(casey.id),
    deviceId: ids.devices.demo,
  };
}
