/**
 * Permission bits that hold even for root: the tests of this project run as root in CI, where a
 * folder of mode 0555 is writable all the same, unless the process lacks the capabilities that
 * bypass permission checks.
 */
import { chmod, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * A `node` for runCli's `node` option that permission bits apply to: `process.execPath` for
 * anyone but root; for root, a script in `folder` that starts it without CAP_DAC_OVERRIDE and
 * CAP_DAC_READ_SEARCH (`setpriv`).
 *
 * @example
 * const r = await runCli(["flock", "install", "reduck/guestbook", "--dir", locked], { env, node: await nodeBoundByPermissions(home) });
 */
export async function nodeBoundByPermissions(folder: string): Promise<string> {
  if (process.getuid?.() !== 0) return process.execPath;
  const script = path.join(folder, "node-without-dac-override.sh");
  await writeFile(script, `#!/bin/sh\nexec setpriv --bounding-set=-dac_override,-dac_read_search "${process.execPath}" "$@"\n`);
  await chmod(script, 0o755);
  return script;
}
