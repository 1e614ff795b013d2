import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { reduck, useSandboxForCli } from "../harness.js";

const server = useSandboxForCli();
const getTitle = () => server.store.scripts.get(SEED_IDS.scripts.getTitle)!;

describe("scripts update", () => {
  it("changes the name, description and human-required flag", async () => {
    const { stdout, exitCode } = await reduck(
      "scripts",
      "update",
      "example.com/get_title",
      "--name",
      "Page title",
      "--description",
      "Returns the title of a page",
      "--human-required",
    );
    expect(exitCode).toBe(0);
    expect(getTitle().name).toBe("Page title");
    expect(getTitle().description).toBe("Returns the title of a page");
    expect(getTitle().humanRequired).toBe(true);
    expect(stdout).toMatch(/^Updated:\s+@demo\/example\.com\/get_title$/m);
    expect(stdout).toMatch(/^Human required:\s+yes$/m);
  });

  it("--no-human-required clears the flag and leaves the rest; --json prints the record", async () => {
    getTitle().humanRequired = true;
    const { json, exitCode } = await reduck("scripts", "update", "@demo/example.com/get_title", "--no-human-required", "--json");
    expect(exitCode).toBe(0);
    expect(getTitle().humanRequired).toBe(false);
    expect(getTitle().name).toBe("Get page title");
    expect(json().human_required).toBe(false);
  });

  it("with nothing to change it is a usage error (exit 2)", async () => {
    const { exitCode, stderr } = await reduck("scripts", "update", "example.com/get_title");
    expect(exitCode).toBe(2);
    expect(stderr).toContain("nothing to change");
  });

  it("official scripts are write-locked (exit 1)", async () => {
    const { exitCode, stderr } = await reduck("scripts", "update", "reduck/mail.google.com/send_email", "--name", "Mine");
    expect(exitCode).toBe(1);
    expect(stderr).toContain("write-locked");
    expect(server.store.findScriptByAddress("reduck", "mail.google.com", "send_email")!.name).toBe("Send Gmail email");
  });
});
