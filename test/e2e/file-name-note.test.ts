/**
 * Bytes arrive named after their input (`attachment`): when the contract has a name argument for
 * that input and it was left out, `reduck run` says so once on stderr, and never fills it in.
 * The built CLI against the sandbox over loopback HTTP, with a real file.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { fileNameNotes, nameArgumentFor } from "../../src/cli/run/file-name-notes.js";
import { loadCatalogue } from "@reduck-client/sandbox";
import { runCli } from "../support/cli.js";
import { useCliSandbox } from "../support/sandbox.js";

/** A catalogue contract as the sandbox seeds it. */
function contract(host: string, slug: string) {
  const entry = loadCatalogue().find((e) => e.host === host && e.slug === slug);
  if (!entry) throw new Error(`the sandbox's catalogue has no ${host}/${slug}`);
  return entry;
}
const sendEmail = contract("mail.google.com", "send_email");
const uploadDocument = contract("docusign.com", "upload_document");
const postMessage = contract("discord.com", "post_message");
let file: string;

const sandbox = useCliSandbox({ store: { browser: "simulated" }, home: "reduck-name-note-" });

beforeAll(async () => {
  file = path.join(sandbox.home, "banner.png");
  await writeFile(file, Buffer.alloc(1000, 1));
});

const NOTE =
  'Note: the file sent as attachment (banner.png) arrives named "attachment", without an extension: that is the name the recipient sees. Add attachmentName=banner.png to name it.';
const lastRun = () => [...sandbox.store.runs.values()].sort((a, b) => b.startedAt.localeCompare(a.startedAt))[0]!;

describe("reduck run without the name argument of a file it sends", () => {
  test("says once on stderr what the recipient sees and which argument changes it; stdout is only the result, the argument not filled in", async () => {
    const r = await runCli(["run", "--script", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=Hi", `file:attachment=${file}`], {
      env: sandbox.env,
    });
    expect(r.code).toBe(0);
    expect(r.stderr.split("\n").filter((l) => l === NOTE)).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ sent: true, attachment: "attachment" });
    expect(lastRun().args).not.toHaveProperty("attachmentName");
  });

  test("with --json: the note stays on stderr and stdout is one JSON document", async () => {
    const r = await runCli(["run", "--json", "--script", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=Hi", `file:attachment=${file}`], {
      env: sandbox.env,
    });
    expect(r.code).toBe(0);
    expect(r.stderr.trim()).toBe(NOTE);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: "completed", result: { attachment: "attachment" } });
  });

  test("no note when the name is given", async () => {
    const r = await runCli(
      ["run", "--script", "reduck/mail.google.com/send_email", "to=me@example.com", "subject=Hi", "attachmentName=banner.png", `file:attachment=${file}`],
      { env: sandbox.env },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/Note:/);
    expect(JSON.parse(r.stdout).attachment).toBe("banner.png");
  });
});

describe("which contracts have a name argument for a file input", () => {
  test("<input>Name in the catalogue's contracts; a generic filename that the file input does not use is none", () => {
    expect(nameArgumentFor("attachment", sendEmail.input_schema)).toBe("attachmentName");
    expect(nameArgumentFor("document", uploadDocument.input_schema)).toBe("documentName");
    expect(nameArgumentFor("attachment", postMessage.input_schema)).toBeUndefined();
    expect(fileNameNotes(postMessage.input_schema, {}, { attachment: "/tmp/a.csv" })).toEqual([]);
  });

  test("a local name a shell would split is quoted in the suggestion", () => {
    expect(fileNameNotes(sendEmail.input_schema, {}, { attachment: "/tmp/Our banner.png" })[0]).toMatch(/Add attachmentName='Our banner\.png' to name it\.$/);
  });
});
