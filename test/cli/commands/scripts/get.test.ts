import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { reduck, useSandboxForCli } from "../harness.js";

const server = useSandboxForCli();

/** The lines of one titled section of the contract, up to the next blank line. */
function section(stdout: string, title: string): string[] {
  const lines = stdout.split("\n");
  const start = lines.findIndex((l) => l.startsWith(title));
  expect(start, `section ${title}`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && l === "");
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

describe("scripts get", () => {
  it("shows an official script's contract, with file inputs apart and how to pass them", async () => {
    const { stdout, exitCode } = await reduck("scripts", "get", "reduck/mail.google.com/send_email");
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^Address:\s+reduck\/mail\.google\.com\/send_email$/m);
    expect(stdout).toMatch(/^Name:\s+Send Gmail email$/m);
    expect(stdout).toMatch(/^Owner:\s+Reduck AI \(reduck, project, official\)$/m);
    expect(stdout).toMatch(/^Visibility:\s+public$/m);
    expect(stdout).toMatch(/^Archived:\s+no$/m);
    expect(stdout).toMatch(/^Login needed:\s+yes/m);
    expect(stdout).toMatch(/^Side effects:\s+write$/m);
    expect(stdout).toMatch(/^Version:\s+1 \(current; id /m);

    const inputs = section(stdout, "INPUTS");
    expect(inputs[0]).toMatch(/^NAME\s+TYPE\s+REQUIRED\s+DESCRIPTION$/);
    expect(inputs.find((l) => l.startsWith("to "))).toMatch(/^to\s+string \| string\[\]\s+yes\s+Recipient/);
    expect(inputs.find((l) => l.startsWith("body "))).toMatch(/^body\s+string\s+no\s+/);
    expect(inputs.some((l) => l.startsWith("attachment "))).toBe(false);

    const files = section(stdout, "FILE INPUTS");
    expect(files[0]).toMatch(/^NAME\s+REQUIRED\s+DESCRIPTION$/);
    expect(files[1]).toMatch(/^attachment\s+no\s+Optional file to attach/);
    expect(stdout).toContain("file:NAME=PATH");
    expect(stdout).toContain("reduck run --script reduck/mail.google.com/send_email to=VALUE subject=VALUE file:attachment=PATH");

    const outputs = section(stdout, "OUTPUTS");
    expect(outputs.find((l) => l.startsWith("sent "))).toMatch(/^sent\s+boolean\s+yes/);
    expect(stdout).not.toContain("CODE");
  });

  it("--code says clearly when the service withholds an official script's source", async () => {
    const { stdout, exitCode } = await reduck("scripts", "get", "reduck/docusign.com/upload_document", "--code");
    expect(exitCode).toBe(0);
    expect(section(stdout, "FILE INPUTS")[1]).toMatch(/^document\s+yes\s+/);
    expect(stdout).toMatch(/^CODE\nwithheld by the service/m);
  });

  it("an address without a handle is your own; --code prints the current version's source", async () => {
    const { stdout, exitCode } = await reduck("scripts", "get", "example.com/get_title", "--code");
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^Address:\s+@demo\/example\.com\/get_title$/m);
    expect(stdout).toMatch(/^Version:\s+2 \(current; id 00000000-0000-4000-8004-000000000002\)$/m);
    const current = server.store.versions.get(SEED_IDS.versions.getTitleV2)!;
    expect(stdout).toContain(`CODE (typescript)\n${current.content.trimEnd()}`);
    expect(stdout).not.toContain("FILE INPUTS");
  });

  it("--version-id reads that version", async () => {
    const { stdout, exitCode } = await reduck("scripts", "get", "example.com/get_title", "--version-id", SEED_IDS.versions.getTitleV1, "--code");
    expect(exitCode).toBe(0);
    expect(stdout).toMatch(/^Version:\s+1 \(promoted; id 00000000-0000-4000-8004-000000000001\)$/m);
    expect(stdout).toMatch(/^Note:\s+First version$/m);
    expect(stdout).toContain(server.store.versions.get(SEED_IDS.versions.getTitleV1)!.content.trimEnd());
  });

  it("--json prints the script record (or the version)", async () => {
    const script = (await reduck("scripts", "get", "@demo/example.com/get_title", "--json")).json();
    expect(script.id).toBe(SEED_IDS.scripts.getTitle);
    expect(script.current_version.id).toBe(SEED_IDS.versions.getTitleV2);
    expect(script.current_version.input_schema.required).toEqual(["url"]);
    const version = (await reduck("scripts", "get", "example.com/get_title", "--version-id", SEED_IDS.versions.getTitleV1, "--json")).json();
    expect(version.id).toBe(SEED_IDS.versions.getTitleV1);
    expect(version.version_number).toBe(1);
  });

  it("a script you cannot see is not found, and a malformed address refused: both are addresses to fix (exit 2)", async () => {
    const hidden = await reduck("scripts", "get", "@alice/example.com/secret_notes");
    expect(hidden.exitCode).toBe(2);
    expect(hidden.stderr).toContain("No such script: @alice/example.com/secret_notes");

    const bad = await reduck("scripts", "get", "send_email");
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("is not a script address");
  });

  it("with --json, a failure is one JSON error document", async () => {
    const { stdout, exitCode, json } = await reduck("scripts", "get", "reduck/mail.google.com/nope", "--json");
    expect(exitCode).toBe(2);
    expect(json().error.message).toContain("No such script");
    expect(stdout).not.toContain(server.store.demo.apiKey);
  });
});
