import { describe, expect, it } from "vitest";
import { SEED_IDS } from "@reduck-client/sandbox";
import { reduck, useSandboxForCli } from "../harness.js";

const server = useSandboxForCli();

describe("devices list", () => {
  it("lists your paired browsers as a table", async () => {
    server.store.addDevice({
      userId: server.store.demo.userId,
      id: "dev-2",
      name: "Work laptop",
      browser: "Brave",
      os: "Linux",
      fileAccess: false,
      reachable: false,
    });
    const { stdout, exitCode } = await reduck("devices", "list");
    expect(exitCode).toBe(0);
    const rows = stdout.trimEnd().split("\n");
    expect(rows).toEqual([`${SEED_IDS.devices.demo}\tGoogle Chrome — macOS\tGoogle Chrome\tmacOS\tyes\tyes`, "dev-2\tWork laptop\tBrave\tLinux\tno\tno"]);
    expect(stdout).not.toContain(SEED_IDS.devices.alice);
  });

  it("--json prints the devices array", async () => {
    const { json } = await reduck("devices", "list", "--json");
    expect(json()).toEqual([expect.objectContaining({ id: SEED_IDS.devices.demo, file_access: true, reachable: true })]);
  });

  it("with none, a note on stderr says how to pair one", async () => {
    server.store.devices.delete(SEED_IDS.devices.demo);
    const { stdout, stderr, exitCode } = await reduck("devices", "list");
    expect(exitCode).toBe(0);
    expect(stdout).toBe("");
    expect(stderr).toContain("No paired browsers");
  });

  it("a refused key exits 4, with one JSON error under --json", async () => {
    const { exitCode, json } = await reduck("devices", "list", "--api-key", "rk_wrong", "--json");
    expect(exitCode).toBe(4);
    expect(json().error.exitCode).toBe(4);
  });
});
