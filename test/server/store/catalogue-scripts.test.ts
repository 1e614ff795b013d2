// Every script of the sandbox's official catalogue, run through POST /run (in-process, msw) with
// valid inputs, on the simulated page and in the real browser against the simulated web: each
// result validates against the script's output contract, is not `{}`, and says what was really
// done (a file's real name, size and SHA-256, compared with the bytes sent). A catalogue script
// without a case here, or without a body of its own, fails the first test: no silent stub.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleSource, loadCatalogue } from "./catalogue.js";
import { createHandlers, createStore, type SandboxStore } from "../index.js";
import { PLACEHOLDER_CONTENT } from "./store.js";
import { CASES, CHANNEL, PNG, sha256 } from "./fixtures/catalogue-cases.js";

// ajv-formats is CommonJS: depending on the loader its default import is the plugin or a namespace holding it.
const addFormats: typeof addFormatsModule.default = typeof addFormatsModule === "function" ? addFormatsModule : addFormatsModule.default;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat("file", true);

const RUN_URL = "https://mcp.reduck.ai/run";
const catalogue = loadCatalogue();
const contractOf = (address: string) => catalogue.find((entry) => `${entry.host}/${entry.slug}` === address)!;

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** POST /run of reduck/<address> on the demo's paired browser, files as multipart parts. */
async function run(store: SandboxStore, address: string, args: Record<string, unknown>, files: Record<string, Uint8Array> = {}): Promise<Answer> {
  const [host, slug] = address.split("/");
  const spec = { browser: "extension", script: { handle: "reduck", host, slug, args } };
  const form = new FormData();
  form.append("spec", JSON.stringify(spec));
  for (const [input, bytes] of Object.entries(files)) form.append(`0:${input}`, new Blob([bytes as BlobPart]), input);
  const response = await fetch(RUN_URL, { method: "POST", headers: { "x-api-key": store.demo.apiKey }, body: form });
  return { status: response.status, body: await response.json() };
}

/** The result validates against the script's output contract, and is more than `{}`. */
function expectContract(address: string, result: unknown): void {
  const validate = ajv.compile(contractOf(address).output_schema);
  const valid = validate(result);
  expect(validate.errors ?? [], `${address}: ${JSON.stringify(result)}`).toEqual([]);
  expect(valid).toBe(true);
  expect(result).toBeTypeOf("object");
  expect(Object.keys(result as object).length).toBeGreaterThan(0);
}

/** `sendAt` as the contract has it: a local date and time with no offset, `minutes` from now. */
function localTime(minutes: number): { sendAt: string; shown: string } {
  const at = new Date(Date.now() + minutes * 60_000);
  const pad = (n: number) => String(n).padStart(2, "0");
  const sendAt = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
  const shown = new Date(sendAt).toLocaleString("en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" });
  return { sendAt, shown };
}

/**
 * Runs each script refuses before acting, with the line the run fails with. A sendAt an hour
 * before this file loaded is still in the past when its test runs.
 */
const PAST = localTime(-60).sendAt;
const REFUSALS: Array<[address: string, what: string, args: Record<string, unknown>, error: string | RegExp]> = [
  [
    "mail.google.com/send_email",
    "a sendAt in the past",
    { to: "me@example.com", subject: "Too late", sendAt: PAST },
    `Error: sendAt ${PAST} is in the past (in the browser's time zone): give a time at least a few minutes ahead; nothing was sent`,
  ],
  [
    "mail.google.com/send_email",
    "a sendAt with an offset",
    { to: "me@example.com", subject: "When?", sendAt: "2030-01-01T09:00:00Z" },
    'Error: sendAt must be a local date and time with no offset, like 2026-10-06T09:00 (got "2030-01-01T09:00:00Z")',
  ],
  [
    "mail.google.com/send_email",
    "a sendAt that does not exist",
    { to: "me@example.com", subject: "When?", sendAt: "2030-02-30T09:00" },
    "Error: sendAt 2030-02-30T09:00 is not a date and time that exists",
  ],
  [
    "mail.google.com/reply_to_email",
    "a sendAt in the past",
    { threadId: "19f2817451c27480", body: "x", sendAt: PAST },
    `Error: sendAt ${PAST} is in the past (in the browser's time zone): give a time at least a few minutes ahead; nothing was sent`,
  ],
  [
    "mail.google.com/reply_to_email",
    "a conversation the account lacks",
    { threadId: "0000000000000000", body: "x" },
    "Error: no conversation 0000000000000000 in this Gmail account: a thread id is the part after #inbox/ in the conversation's Gmail address",
  ],
  [
    "wise.com/attach_receipt",
    "a type Wise does not take",
    { txid: "42", b64: Buffer.from("hello").toString("base64"), filename: "notes.txt", mime: "text/plain" },
    "Error: Wise refused the file: notes.txt: this file type is not supported (text/plain).",
  ],
  [
    "slack.com/upload_file",
    "a channel the workspace lacks (naming the ones it has)",
    { channel: "#nowhere", content: "x" },
    "Error: no channel #nowhere in this workspace (its channels: #general, #random)",
  ],
  [
    "discord.com/post_message",
    "an empty message",
    { channelUrl: CHANNEL, message: "   " },
    "Error: an empty message cannot be posted: give message (1 to 2000 characters), a file, or both",
  ],
  [
    "discord.com/post_message",
    "a message over 2000 characters",
    { channelUrl: CHANNEL, message: "x".repeat(2001) },
    "Error: message is 2001 characters; Discord takes at most 2000: shorten it or split it into several messages",
  ],
  [
    "discord.com/post_message",
    "an address that is not a channel's",
    { channelUrl: "https://discord.com/app", message: "Hi" },
    /^Error: channelUrl must be a channel's address, https:\/\/discord\.com\/channels\/<guildId>\/<channelId>/,
  ],
];

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

describe("the sandbox's catalogue", () => {
  it("has a case here and a real body for every script, one body that both browsers run", async () => {
    const addresses = catalogue.map((entry) => `${entry.host}/${entry.slug}`);
    expect(addresses.sort()).toEqual(Object.keys(CASES).sort());
    for (const entry of catalogue) {
      const { content } = exampleSource(entry.host, entry.slug);
      expect(content, `${entry.host}/${entry.slug}`).toBeDefined();
      expect(content!.trim()).not.toBe(PLACEHOLDER_CONTENT.trim());
      expect(content).not.toMatch(/^\s*return \{\s*\};?\s*$/m);
    }
    // Each store, whichever its browser, seeds the very same bodies.
    const bodies = (store: SandboxStore) =>
      catalogue.map((entry) => {
        const script = store.findScriptByAddress("reduck", entry.host, entry.slug);
        return [entry.host, entry.slug, script && store.currentVersion(script)?.content];
      });
    expect(bodies(createStore({ browser: "simulated" }))).toEqual(bodies(createStore({ browser: "real" })));
  });
});

describe.each(["simulated", "real"] as const)("every catalogue script on the %s browser", (browser) => {
  let store: SandboxStore;
  beforeAll(() => {
    store = createStore({ browser });
    server.resetHandlers(...createHandlers(store));
  });

  it.each(Object.keys(CASES))(
    "%s: acts, and returns what its output contract says",
    async (address) => {
      const { args, files, expected } = CASES[address]!;
      const answer = await run(store, address, args, files);
      expect(answer.body.error, JSON.stringify(answer.body)).toBeUndefined();
      expect(answer.status).toBe(200);
      expectContract(address, answer.body.result);
      expect(answer.body.result).toEqual(expected);
    },
    60_000,
  );

  it.each(REFUSALS)(
    "%s refuses %s, saying so",
    async (address, _what, args, error) => {
      const answer = await run(store, address, args);
      expect(answer).toMatchObject({ status: 422, body: { error: typeof error === "string" ? error : expect.stringMatching(error) } });
    },
    60_000,
  );

  it("download_invoice: size_bytes is the length of the PDF it returns", async () => {
    const { result } = (await run(store, "admin.atlassian.com/download_invoice", CASES["admin.atlassian.com/download_invoice"]!.args)).body;
    expect(Buffer.from(result.pdf_base64, "base64").byteLength).toBe(result.size_bytes);
  }, 60_000);

  describe("mail.google.com/send_email with sendAt", () => {
    // Twin on purpose of the root's test/e2e/catalogue.test.ts (the same result through the CLI): the sandbox shares no test code with the client's.
    it("in the future: scheduled, not sent, and found in the Scheduled folder with the date Gmail shows", async () => {
      const { sendAt, shown } = localTime(90);
      const answer = await run(store, "mail.google.com/send_email", { to: "me@example.com", subject: "Later", body: "Hi", sendAt });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expectContract("mail.google.com/send_email", answer.body.result);
      expect(answer.body.result).toEqual({
        sent: false,
        scheduled: true,
        to: ["me@example.com"],
        cc: [],
        bcc: [],
        subject: "Later",
        threadId: expect.stringMatching(/^[0-9a-f]{16}$/),
        scheduledFor: shown,
        foundInScheduled: true,
      });
    }, 60_000);

    it("with an attachment: scheduled with it, under attachmentName", async () => {
      const answer = await run(
        store,
        "mail.google.com/send_email",
        { to: "me@example.com", subject: "Later, with a file", sendAt: localTime(30).sendAt, attachmentName: "banner.png" },
        { attachment: PNG },
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.result).toMatchObject({ sent: false, scheduled: true, attachment: "banner.png", foundInScheduled: true });
    }, 60_000);
  });

  describe("mail.google.com/reply_to_email", () => {
    it("by its link, with sendAt ahead: scheduled in the conversation, found in the Scheduled folder", async () => {
      const { sendAt, shown } = localTime(45);
      const answer = await run(store, "mail.google.com/reply_to_email", {
        threadUrl: "https://mail.google.com/mail/u/0/#inbox/19f2817451c27480",
        body: "Will pay Monday.",
        sendAt,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expectContract("mail.google.com/reply_to_email", answer.body.result);
      expect(answer.body.result).toEqual({
        sent: false,
        scheduled: true,
        replyAll: false,
        threadId: "19f2817451c27480",
        subject: "Invoice for October",
        cc: [],
        scheduledFor: shown,
        foundInScheduled: true,
      });
    }, 60_000);
  });

  describe("discord.com/post_message", () => {
    it("dry_run prepares the message and posts nothing", async () => {
      const answer = await run(store, "discord.com/post_message", { channelUrl: CHANNEL, message: "Draft", dry_run: true }, { attachment: PNG });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expectContract("discord.com/post_message", answer.body.result);
      expect(answer.body.result).toEqual({
        sent: false,
        dry_run: true,
        channelId: "1100000000000000002",
        messageId: null,
        timestamp: null,
        content: null,
        attachment: null,
      });
    }, 60_000);

    it("fileBase64 with filename: the file is posted under that name, its size and checksum those of the decoded bytes", async () => {
      const csv = "name,amount\nalice,42\nbob,7\n";
      const answer = await run(store, "discord.com/post_message", {
        channelUrl: CHANNEL,
        fileBase64: Buffer.from(csv).toString("base64"),
        filename: "report.csv",
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expectContract("discord.com/post_message", answer.body.result);
      expect(answer.body.result).toMatchObject({
        sent: true,
        content: "",
        attachment: { filename: "report.csv", size: csv.length, content_type: "text/csv", sha256: sha256(csv) },
      });
    }, 60_000);
  });
});
