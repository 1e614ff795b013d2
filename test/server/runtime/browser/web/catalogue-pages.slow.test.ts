// The simulated sites the catalogue scripts act on, driven by hand in the real browser: they keep
// what the scripts report (Gmail's Scheduled folder, Discord's messages, Drive's rows), hash the
// bytes they received, and refuse what the real sites refuse, on their own, whatever a script
// checked before.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BrowserHost } from "../index.js";
import { runBody } from "../script.js";

const host = new BrowserHost();
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

beforeAll(async () => {
  await (await host.newRun()).finish();
}, 120_000);

afterAll(async () => {
  await host.close();
});

/** Runs `source` in a new run and fails the test with the script's own error. */
async function expectResult(source: string, options: Parameters<typeof runBody>[2] = {}): Promise<unknown> {
  const outcome = await runBody(host, source, options);
  if (outcome.error) throw outcome.error;
  return outcome.result;
}

const COMPOSE = `
await builtins.goto("https://mail.google.com/mail/u/0/#inbox?compose=new");
await builtins.paste('div[role="dialog"] input[aria-label="To recipients"]', "me@example.com");
await builtins.paste('div[role="dialog"] input[name="subjectbox"]', "Quarterly");
await page.locator('button[aria-label="More send options"]').click();
await page.getByRole("menuitem", { name: "Schedule send" }).click();
const picker = page.locator('[aria-label="Pick date & time"]');
`;

describe("mail.google.com: Schedule send and the Scheduled folder", () => {
  test("a time that is not ahead is refused by the picker itself, and nothing is filed", async () => {
    const result = await expectResult(`${COMPOSE}
await picker.locator("input").fill("2020-01-01T09:00");
await picker.getByRole("button", { name: "Schedule send" }).click();
const refusal = await picker.getByRole("alertdialog").textContent();
await page.getByRole("link", { name: "Scheduled" }).click();
await page.locator("#mailbox").filter({ hasNotText: "Inbox" }).waitFor();
return { refusal, folder: await page.locator("#mailbox").textContent(), compose: await page.locator('div[role="dialog"]').count() };`);
    expect(result).toEqual({ refusal: "Scheduled time must be in the future.", folder: "No scheduled messages.", compose: 1 });
  });

  test("a future time files the message in the Scheduled folder with a thread id and the date as shown", async () => {
    const result = await expectResult(`${COMPOSE}
await picker.locator("input").fill("2099-10-06T09:00");
await picker.getByRole("button", { name: "Schedule send" }).click();
await page.getByRole("alert").filter({ hasText: "Send scheduled" }).waitFor();
await page.getByRole("link", { name: "Scheduled" }).click();
await page.locator('table[aria-label="Scheduled"]').waitFor();
return await page.locator('table[aria-label="Scheduled"] tr').evaluateAll((rows) => rows.map((row) => ({
  thread: row.dataset.legacyThreadId,
  cells: [...row.cells].map((cell) => cell.textContent),
})));`);
    expect(result).toEqual([{ thread: expect.stringMatching(/^[0-9a-f]{16}$/), cells: ["To: me@example.com", "Quarterly", "", "Oct 6, 2099, 9:00 AM"] }]);
  });
});

describe("discord.com: a channel", () => {
  const CHANNEL = "https://discord.com/channels/1/22";

  test("refuses an empty message and one over 2000 characters with Discord's notices, posting nothing", async () => {
    const result = await expectResult(`
await builtins.goto("${CHANNEL}");
const box = 'div[role="textbox"]';
await page.locator(box).click();
await builtins.pressKey("Enter");
const empty = await page.getByRole("alert").textContent();
await builtins.paste(box, "x".repeat(2001));
await builtins.pressKey("Enter");
const long = await page.getByRole("alert").textContent();
return { empty, long, messages: await page.locator('ol[data-list-id="chat-messages"] > li').count() };`);
    expect(result).toEqual({ empty: "You cannot send an empty message.", long: "Your message is too long: 2001 of 2000 characters.", messages: 1 });
  });

  test("a posted file carries the name, size, type and SHA-256 of the bytes the page received", async () => {
    const bytes = new Uint8Array(5000).map((_, i) => (i * 7) % 251);
    const result = await expectResult(
      `
await builtins.goto("${CHANNEL}");
await builtins.uploadFile("input.file-input", "attachment");
await page.locator('div[role="textbox"]').click();
await builtins.pressKey("Enter");
const posted = page.locator('ol[data-list-id="chat-messages"] > li').nth(1);
await posted.waitFor();
return await posted.locator("a.attachment").evaluate((a) => ({ ...a.dataset }));`,
      { files: { attachment: { via: "bytes", bytes } } },
    );
    expect(result).toEqual({
      attachmentId: expect.stringMatching(/^\d+$/),
      filename: "attachment",
      size: String(bytes.length),
      contentType: "application/octet-stream",
      sha256: sha256(bytes),
    });
  });

  test("an address that is not a channel is a 404 page", async () => {
    const result = await expectResult(`await builtins.goto("https://discord.com/app"); return await page.locator("h1").textContent();`);
    expect(result).toBe("404 — not in the sandbox's simulated web");
  });
});

describe("drive.google.com: My Drive", () => {
  test("each upload is a new row, beside the ones before, with the bytes' size and SHA-256", async () => {
    const bytes = new Uint8Array(1234).map((_, i) => (i * 13) % 256);
    const result = await expectResult(
      `
await builtins.goto("https://drive.google.com/drive/my-drive");
await builtins.uploadFile('input[type="file"][name="Filedata"]', "doc");
const rows = page.locator('[role="grid"] [role="row"]');
await rows.nth(1).waitFor();
return await rows.evaluateAll((all) => all.map((row) => ({ id: row.dataset.id, name: row.textContent, size: row.dataset.size, sha256: row.dataset.sha256 })));`,
      { files: { doc: { via: "bytes", bytes } } },
    );
    expect(result).toEqual([
      { id: "1sandboxWelcomeDocAAAAAAAAAAAAAAA", name: "Welcome.pdf", size: "1024", sha256: undefined },
      { id: expect.stringMatching(/^1[A-Za-z0-9_-]{32}$/), name: "doc", size: "1234", sha256: sha256(bytes) },
    ]);
  });
});

describe("mail.google.com: Save & close and the Drafts folder", () => {
  test("the draft joins the one already there, and the folder's count follows", async () => {
    const result = await expectResult(`
await builtins.goto("https://mail.google.com/mail/u/0/#inbox?compose=new");
const count = () => page.locator('nav a[href="#drafts"] .count').textContent();
const before = await count();
await builtins.paste('div[role="dialog"] input[aria-label="To recipients"]', "me@example.com");
await builtins.paste('div[role="dialog"] input[name="subjectbox"]', "Unsent idea");
await page.locator('button[aria-label="Save & close"]').click();
await page.locator('nav a[href="#drafts"]').click();
await page.locator('table[aria-label="Drafts"]').waitFor();
return { before, after: await count(), subjects: await page.locator('table[aria-label="Drafts"] td.subject').allTextContents(), status: await page.locator('[data-preview="status"]').textContent() };`);
    expect(result).toEqual({ before: "1", after: "2", subjects: ["Notes for Monday", "Unsent idea"], status: "draft saved" });
  });
});

describe("wise.com: a card transaction's Attachments", () => {
  const TRANSACTION = "https://wise.com/transactions/activities/by-resource/CARD_TRANSACTION/2980039980";

  test("a receipt is listed with the name, size, type and SHA-256 of the bytes received; a type Wise does not take is refused", async () => {
    const bytes = new Uint8Array(777).map((_, i) => (i * 3) % 256);
    const result = await expectResult(
      `
await builtins.goto("${TRANSACTION}");
await builtins.uploadFile('section[aria-label="Attachments"] input[type="file"]', "receipt.png");
const item = page.locator("li.attachment");
await item.waitFor();
const listed = await item.evaluate((li) => ({ ...li.dataset, text: li.textContent }));
await builtins.uploadFile('section[aria-label="Attachments"] input[type="file"]', "notes.txt");
const refusal = await page.getByRole("alert").textContent();
return { listed, refusal, count: await item.count() };`,
      { files: { "receipt.png": { via: "bytes", bytes }, "notes.txt": { via: "bytes", bytes: new TextEncoder().encode("hi") } } },
    );
    expect(result).toEqual({
      listed: { filename: "receipt.png", size: "777", type: "image/png", sha256: sha256(bytes), text: "receipt.png (777 bytes, image/png)" },
      refusal: "notes.txt: this file type is not supported (text/plain).",
      count: 1,
    });
  });
});

describe("app.slack.com: a workspace", () => {
  test("an uploaded file is a card in the channel with its title, the message, the bytes' size and SHA-256; the other channel stays empty", async () => {
    const bytes = new TextEncoder().encode("line one\nline two\n");
    const result = await expectResult(
      `
await builtins.goto("https://app.slack.com/client");
await page.locator('nav a[data-name="general"]').click();
await builtins.uploadFile('input[data-qa="file_upload"]', "notes.txt");
const dialog = page.getByRole("dialog", { name: "Upload a file" });
await dialog.locator('input[name="title"]').fill("Notes");
await dialog.locator('textarea[name="comment"]').fill("see this");
await dialog.getByRole("button", { name: "Upload" }).click();
const card = page.locator('[data-qa="file"]');
await card.waitFor();
const general = { url: page.url(), text: await page.locator('[data-qa="message"] .text').textContent(), title: await card.locator(".title").textContent(), ...(await card.evaluate((c) => ({ ...c.dataset }))) };
await page.locator('nav a[data-name="random"]').click();
return { general, random: await page.locator('[data-qa="message"]').count() };`,
      { files: { "notes.txt": { via: "bytes", bytes } } },
    );
    expect(result).toEqual({
      general: {
        url: "https://app.slack.com/client/T0SANDBOX1/C0GENERAL01",
        text: "see this",
        title: "Notes",
        qa: "file",
        fileId: expect.stringMatching(/^F[A-Z0-9]{10}$/),
        name: "notes.txt",
        size: String(bytes.length),
        sha256: sha256(bytes),
      },
      random: 0,
    });
  });
});

describe("mail.google.com: a conversation", () => {
  test("the inbox links it; Reply all writes to everyone but me, keeps the Cc, and the sent reply joins the conversation", async () => {
    const result = await expectResult(`
await builtins.goto("https://mail.google.com/mail/u/0/#inbox");
await page.locator('table[aria-label="Inbox"] a.subject').click();
const conversation = page.locator('article[aria-label="Conversation"]');
await conversation.locator('button[aria-label="Reply all"]').click();
const recipients = await conversation.locator('[aria-label="Reply"] .recipients').textContent();
await builtins.paste('[aria-label="Reply"] div[aria-label="Message Body"]', "Paid.");
await builtins.pressKey("Control+Enter");
const messages = conversation.locator('[aria-label="Messages"] > [role="listitem"]');
await messages.nth(1).waitFor();
return { url: page.url(), recipients, reply: await messages.nth(1).evaluate((m) => ({ ...m.dataset, body: m.querySelector(".body").textContent })) };`);
    expect(result).toEqual({
      url: "https://mail.google.com/mail/u/0/#inbox/19f2817451c27480",
      recipients: "To: billing@vendor.example, finance@example.com",
      reply: { from: "demo@example.com", to: "billing@vendor.example, finance@example.com", cc: "accounts@example.com", attachments: "", body: "Paid." },
    });
  });

  test("a conversation the account lacks says so", async () => {
    const result = await expectResult(
      `await builtins.goto("https://mail.google.com/mail/u/0/#inbox/0123456789abcdef"); return await page.locator("#mailbox").textContent();`,
    );
    expect(result).toBe("The conversation you requested could not be found.");
  });
});
