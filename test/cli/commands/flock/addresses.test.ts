/**
 * Flock commands given a scope or an app image the service does not know: a usage error (exit 2)
 * on one line, the service's words and what was most likely meant; nothing is installed.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reduck, tempDir, useSandboxForCli } from "../harness.js";

const server = useSandboxForCli();

/** The sandbox's words for a scope the caller is not in (apps are never public). */
const noScope = (handle: string) => `No scope ${handle} that you are in (apps are never public, so an unknown handle and a scope of others answer alike).`;
const noImage = (address: string) => `No app image ${address} that you may see.`;

describe("flock list HANDLE", () => {
  it("a scope the caller is not in exits 2 with the scope most likely meant", async () => {
    const cases: Array<[string, string]> = [
      ["acmee", "Did you mean acme?"],
      ["demo", "Did you mean @demo? A person's handle starts with @."],
      ["@acme", "Did you mean acme? A project's handle has no @."],
      // Known handles whose apps the caller cannot reach: apps are never public.
      ["@alice", "Apps are never public: your scopes are @demo, acme, partners."],
      ["reduck", "Apps are never public: your scopes are @demo, acme, partners."],
    ];
    for (const [handle, hint] of cases) {
      const { exitCode, stderr } = await reduck("flock", "list", handle);
      expect(exitCode, handle).toBe(2);
      expect(stderr).toBe(`Error: listing ${handle}'s apps: ${noScope(handle)} ${hint}\n`);
    }
    const json = await reduck("flock", "list", "acmee", "--json");
    expect(json.exitCode).toBe(2);
    expect(json.json().error.message).toBe(`listing acmee's apps: ${noScope("acmee")} Did you mean acme?`);
    expect((await reduck("flock", "list", "@demo")).exitCode).toBe(0);
  });
});

describe("flock install IMAGE", () => {
  it("an image or a scope the service does not know exits 2 with the one most likely meant, and installs nothing", async () => {
    const before = server.store.apps.size;
    const dir = tempDir();
    const cases: Array<[string[], string]> = [
      [["reduck/guestbok"], `installing reduck/guestbok: ${noImage("reduck/guestbok")} Did you mean reduck/guestbook?`],
      [["reduk/guestbook"], `installing reduk/guestbook: ${noImage("reduk/guestbook")} Did you mean reduck/guestbook?`],
      [["reduck/nothing-like-it"], `installing reduck/nothing-like-it: ${noImage("reduck/nothing-like-it")} reduck has: guestbook.`],
      [["reduck/guestbook", "--scope", "acmee"], `installing reduck/guestbook: ${noScope("acmee")} Did you mean acme?`],
    ];
    for (const [args, message] of cases) {
      const { exitCode, stderr } = await reduck("flock", "install", ...args, "--dir", dir);
      expect(exitCode, args.join(" ")).toBe(2);
      expect(stderr).toBe(`Error: ${message}\n`);
    }
    expect(server.store.apps.size).toBe(before);
    expect((await reduck("flock", "install", "reduck/guestbook", "--dir", dir)).exitCode).toBe(0);
  });
});

describe("flock releases and rollback --image", () => {
  it("an image the service does not know exits 2 with the image most likely meant", async () => {
    const releases = await reduck("flock", "releases", "--image", "reduck/guestbok");
    expect(releases.exitCode).toBe(2);
    expect(releases.stderr).toBe(`Error: listing the releases of reduck/guestbok: ${noImage("reduck/guestbok")} Did you mean reduck/guestbook?\n`);
    const rollback = await reduck("flock", "rollback", "1", "--image", "@reduck/guestbook");
    expect(rollback.exitCode).toBe(2);
    expect(rollback.stderr).toBe(`Error: rolling @reduck/guestbook back to release 1: ${noImage("@reduck/guestbook")} Did you mean reduck/guestbook?\n`);
    // A release an image of the caller's lacks: exit 2, with the releases it has (none yet here).
    server.store.addAppImage({ owner: server.store.resolveHandle("@demo")!, slug: "empty", name: "Empty" });
    const missing = await reduck("flock", "rollback", "9", "--image", "@demo/empty");
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toBe(
      "Error: rolling @demo/empty back to release 9: @demo/empty has no release 9. @demo/empty has no releases yet: `reduck flock deploy` makes one.\n",
    );
    // A known image the caller may not change stays the service's refusal (exit 1).
    const refused = await reduck("flock", "rollback", "1", "--image", "reduck/guestbook");
    expect(refused.exitCode).toBe(1);
    expect((await reduck("flock", "releases", "--image", "reduck/guestbook")).exitCode).toBe(0);
  });
});

describe("flock deploy --image", () => {
  it("an image in a scope the caller is not in exits 2 with the scope most likely meant", async () => {
    const dir = tempDir();
    await writeFile(path.join(dir, "front.jsx"), "export default () => null;\n");
    const { exitCode, stderr } = await reduck("flock", "deploy", dir, "--image", "acmee/notes");
    expect(exitCode).toBe(2);
    expect(stderr).toBe(`Error: creating the app acmee/notes: ${noScope("acmee")} Did you mean acme?\n`);
    expect([...server.store.appImages.values()].filter((i) => i.slug === "notes")).toEqual([]);
  });
});

describe("flock open and secrets:set", () => {
  it("an app flock.json names that the service does not know exits 2, naming the file, the scope's apps and the install", async () => {
    const dir = tempDir();
    expect((await reduck("flock", "install", "reduck/guestbook", "--dir", dir)).exitCode).toBe(0);
    const file = path.join(dir, "flock.json");
    const flock = JSON.parse(await readFile(file, "utf8"));
    const installed: string = flock.app.id;
    const gone = "00000000-0000-4000-8000-000000000000";
    await writeFile(file, JSON.stringify({ ...flock, app: { handle: "@demo", id: gone } }));
    const hint = `${file} names an app the service does not know (uninstalled?); @demo has ${installed} from reduck/guestbook; \`reduck flock install reduck/guestbook --dir ${dir}\` installs a new one.`;
    const open = await reduck("flock", "open", "--dir", dir);
    expect(open.exitCode).toBe(2);
    expect(open.stderr).toBe(`Error: reading app ${gone}: No app ${gone} under @demo. ${hint}\n`);
    const secrets = await reduck("flock", "secrets", "set", "NOTION_TOKEN=secret_example", "--dir", dir);
    expect(secrets.exitCode).toBe(2);
    expect(secrets.stderr).toBe(`Error: setting NOTION_TOKEN on app ${gone}: No app ${gone} under @demo. ${hint}\n`);
    expect(secrets.stderr).not.toContain("secret_example");

    await writeFile(file, JSON.stringify({ ...flock, app: { handle: "demo", id: installed } }));
    const scope = await reduck("flock", "open", "--dir", dir);
    expect(scope.exitCode).toBe(2);
    expect(scope.stderr).toBe(`Error: reading app ${installed}: ${noScope("demo")} ${file} names demo: Did you mean @demo? A person's handle starts with @.\n`);
  });
});
