/**
 * The sandbox's catalogue scripts from the built CLI, over loopback, in the real browser against the
 * simulated web, with real files: what they report of a file is what was on disk (name, size,
 * SHA-256), and a run the site or the script refuses is exit 1 with its reason, in one line.
 */
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../support/cli.js";
import { useCliSandbox } from "../support/sandbox.js";
import { sha256 } from "../support/files.js";

const sandbox = useCliSandbox({ home: "reduck-catalogue-" });

describe("catalogue scripts from the CLI", () => {
  test("csm-testcenter.org/upload_via_uploadfile: the site's report names the file and hashes the bytes on disk", async () => {
    const bytes = randomBytes(200_000);
    const file = path.join(sandbox.home, "scan.pdf");
    await writeFile(file, bytes);
    const r = await runCli(["run", "--script", "reduck/csm-testcenter.org/upload_via_uploadfile", `file:test-upload.pdf=${file}`], { env: sandbox.env });
    expect(r.stderr).not.toMatch(/^Error/m);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({
      resultText: "1 file uploaded successfully.",
      uploaded: { name: "test-upload.pdf", size: bytes.length },
      fields: { Filename: "test-upload.pdf", Size: String(bytes.length), SHA256: sha256(bytes) },
      sha256: sha256(bytes),
    });
  }, 60_000);

  test("discord.com/post_message: the posted attachment is the file on disk", async () => {
    const bytes = randomBytes(4096);
    const file = path.join(sandbox.home, "chart.png");
    await writeFile(file, bytes);
    const r = await runCli(
      [
        "run",
        "--script",
        "reduck/discord.com/post_message",
        "channelUrl=https://discord.com/channels/1/2",
        "message=This week's chart",
        `file:attachment=${file}`,
      ],
      { env: sandbox.env },
    );
    expect(r.stderr).not.toMatch(/^Error/m);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      sent: true,
      channelId: "2",
      messageId: expect.stringMatching(/^\d+$/),
      content: "This week's chart",
      attachment: { filename: "attachment", size: bytes.length, sha256: sha256(bytes) },
    });
  }, 60_000);

  test("mail.google.com/send_email with a sendAt in the past: exit 1, one line saying why, nothing sent", async () => {
    const r = await runCli(["run", "--script", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=Late", "sendAt=2020-01-01T09:00"], {
      env: sandbox.env,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(
      "sendAt 2020-01-01T09:00 is in the past (in the browser's time zone): give a time at least a few minutes ahead; nothing was sent",
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(
      r.stderr
        .trim()
        .split("\n")
        .filter((line) => line.startsWith("Error")),
    ).toHaveLength(1);
  }, 60_000);

  // A twin on purpose of the sandbox's own test of this script (test/server/store/catalogue-scripts.test.ts):
  // that one checks the sandbox against the contract, this one what the CLI prints of it.
  test("mail.google.com/send_email with a sendAt ahead: scheduled, not sent, found in the Scheduled folder", async () => {
    const r = await runCli(["run", "--script", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=Later", "sendAt=2099-10-06T09:00"], {
      env: sandbox.env,
    });
    expect(r.stderr).not.toMatch(/^Error/m);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      sent: false,
      scheduled: true,
      to: ["me@example.com"],
      cc: [],
      bcc: [],
      subject: "Later",
      threadId: expect.stringMatching(/^[0-9a-f]{16}$/),
      scheduledFor: "Oct 6, 2099, 9:00 AM",
      foundInScheduled: true,
    });
  }, 60_000);
});
