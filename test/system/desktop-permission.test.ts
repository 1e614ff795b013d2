/**
 * A desktop the agent tool may not read is reported as a permission problem, not as a
 * missing file. The denial is real: a reduck folder with mode 000, read by a process that
 * permissions apply to (as root, one started without the capabilities that bypass them).
 */
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { BIN, baseEnv } from "../support/cli.js";
import { temporaryFolder } from "../support/files.js";
import { startMcp } from "../support/mcp-stdio.js";
import { sendEmail } from "../mcp/support.js";

let desktop: string;

beforeAll(async () => {
  desktop = temporaryFolder("reduck-denied-desktop-");
  await mkdir(path.join(desktop, "reduck"));
  await writeFile(path.join(desktop, "reduck", "banner.png"), "png");
  await chmod(path.join(desktop, "reduck"), 0o000);
});

// Readable again, so the folder can be removed when the file ends.
afterAll(async () => {
  await chmod(path.join(desktop, "reduck"), 0o755);
});

/** `reduck mcp` for whom mode bits count: root keeps them only without CAP_DAC_OVERRIDE. */
function startDeniedMcp() {
  const node = [process.execPath, BIN, "mcp"];
  const [command, ...args] = process.getuid?.() === 0 ? ["setpriv", "--bounding-set=-dac_override,-dac_read_search", ...node] : node;
  return startMcp(command!, args, {
    env: { ...baseEnv(), HOME: desktop, REDUCK_API_KEY: "rk_unused", REDUCK_API_URL: "http://127.0.0.1:9", REDUCK_DESKTOP: desktop },
  });
}

test("run_script says the reduck folder could not be read for lack of permission, before any request", async () => {
  const mcp = startDeniedMcp();
  try {
    await mcp.initialize();
    const result = await mcp.request("tools/call", {
      name: "run_script",
      arguments: sendEmail({ attachment: { relativePath: "banner.png" } }),
    });
    expect(result.isError).toBe(true);
    const text = result.content[0].text as string;
    expect(text).toContain(`permission denied reading ${path.join(desktop, "reduck")} (EACCES)`);
    expect(text).toContain("give your user read access to it, or set REDUCK_DESKTOP");
  } finally {
    await mcp.close();
  }
});
