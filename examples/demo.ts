/**
 * `npm run demo`: the main job end to end on a fresh clone.
 *
 * Builds the CLI and the library when the build is older than the sources (or missing), starts
 * the sandbox (over real HTTP, running scripts in a headless Chromium) on
 * `--port N` or a free port with a simulated desktop, then uses it the way a user would: the
 * library programs in examples/, then the built `reduck` CLI, ending with the screenshot of the
 * page its upload filled. Exits 0 only when every step worked.
 */
import { execFile } from "node:child_process";
import { mkdtemp, mkdir, writeFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startSandboxProcess } from "@reduck-client/sandbox";
import { promisify } from "node:util";
import { demoOptions, demoShellEnv, staleBuild } from "./demo-options.js";
import { shellCommand } from "./shell-words.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const run = promisify(execFile);
/** The shell's environment without its REDUCK_ variables: the demo's sandbox is the only one its steps reach. */
const shell = demoShellEnv(process.env);

let options: ReturnType<typeof demoOptions>;
try {
  options = demoOptions(process.argv.slice(2));
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}
const stale = staleBuild(root);
if (stale) {
  console.log(`Building first (${stale}): npm run build`);
  await run(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "build"], { cwd: root, shell: process.platform === "win32", env: shell });
} else console.log("The build is current (dist/ is newer than src/): not building.");

function heading(text: string) {
  console.log(`\n=== ${text}`);
}

async function step(title: string, cmd: string, args: string[], env: Record<string, string>) {
  heading(title);
  // Shell-quoted, so the line can be pasted as it stands (from this folder, with the exports above).
  console.log(`$ ${shellCommand([cmd === process.execPath ? "node" : cmd, ...args])}`);
  const { stdout, stderr } = await run(cmd, args, { cwd: root, env: { ...shell, ...env }, maxBuffer: 16 * 2 ** 20 });
  if (stderr.trim()) console.log(stderr.trim().replace(/^/gm, "  (stderr) "));
  console.log(stdout.trim());
  return { stdout, stderr };
}

const desktop = await mkdtemp(path.join(os.tmpdir(), "reduck-demo-desktop-"));
const downloads = await mkdtemp(path.join(os.tmpdir(), "reduck-demo-downloads-"));
await mkdir(path.join(desktop, "reduck", "2026"), { recursive: true });
// A small PNG-like file to attach (its bytes only need to arrive intact).
const banner = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4096, 7)]);
await writeFile(path.join(desktop, "reduck", "2026", "banner.png"), banner);
await writeFile(path.join(downloads, "banner.png"), banner);
// Kept after the demo, so the screenshot it points to can be opened: in the clone (git-ignored),
// replaced by each demo, rather than a new folder in the machine's temporary folder every time.
const screenshots = path.resolve("demo-output", "screenshots");
await rm(screenshots, { recursive: true, force: true });
await mkdir(screenshots, { recursive: true });

const sandbox = await startSandboxProcess(desktop, { stderr: "inherit", port: options.port, env: shell });
// REDUCK_DESKTOP: where the sandbox reads named files, and `reduck mcp` with it.
const env: Record<string, string> = { ...sandbox.env, REDUCK_DESKTOP: desktop, REDUCK_CONFIG_DIR: path.join(desktop, ".config") };
// Relative to the clone (the steps run there), so the printed commands read as typed in it.
const tsx = ["node_modules/tsx/dist/cli.mjs"];
const cli = "bin/run.js";
let failed = false;
try {
  console.log(`Sandbox at ${env.REDUCK_API_URL}; simulated desktop ${desktop}`);
  console.log("Each command below is printed shell-quoted: in this folder, with these variables exported (and the sandbox running), paste it as it stands:");
  for (const [name, value] of Object.entries(env)) console.log(`export ${name}=${shellCommand([value])}`);
  await step("Library: list the catalogue and read a contract", process.execPath, [...tsx, "examples/list-scripts.ts"], env);
  await step("Library: send_email with a file as bytes", process.execPath, [...tsx, "examples/send-email.ts", path.join(downloads, "banner.png")], env);
  await step("Library: send_email with a named file (relativePath)", process.execPath, [...tsx, "examples/send-email.ts", "--named", "2026/banner.png"], env);
  await step("CLI: list the catalogue", process.execPath, [cli, "scripts", "list", "reduck", "--host", "mail.google.com"], env);
  await step("CLI: send_email's contract", process.execPath, [cli, "scripts", "get", "reduck/mail.google.com/send_email"], env);
  const sent = await step(
    "CLI: run send_email with a file",
    process.execPath,
    [
      cli,
      "run",
      "--script",
      "reduck/mail.google.com/send_email",
      "to=me@example.com",
      "subject=Our new banner",
      "attachmentName=banner.png",
      `file:attachment=${path.join(downloads, "banner.png")}`,
    ],
    env,
  );
  await step("CLI: the run in the run list", process.execPath, [cli, "runs", "list", "--page-size", "3"], env);
  const runId = /^run ([0-9a-f-]{36})$/m.exec(sent.stderr)?.[1];
  if (!runId) throw new Error("reduck run printed no run id on stderr");
  const traced = await step(
    "CLI: the run's steps and the page it left, as a PNG",
    process.execPath,
    [cli, "runs", "trace", runId, "--screenshots", screenshots],
    env,
  );
  const screenshot = (JSON.parse(traced.stdout) as { screenshots?: Array<{ path?: string }> }).screenshots?.find((s) => s.path)?.path;
  if (!screenshot) throw new Error(`run ${runId} left no screenshot`);
  console.log(`\nThe compose page after the upload (what the recipient will see): ${screenshot}`);
} catch (err) {
  failed = true;
  const e = err as { message: string; stdout?: string; stderr?: string };
  console.error(`\nDemo step failed: ${e.message}`);
  if (e.stdout) console.error(e.stdout);
  if (e.stderr) console.error(e.stderr);
} finally {
  sandbox.stop();
  await rm(desktop, { recursive: true, force: true });
  await rm(downloads, { recursive: true, force: true });
}
console.log(failed ? "\nDemo failed." : "\nDemo finished: every step worked.");
process.exit(failed ? 1 : 0);
