/**
 * The command a generated types module records in its header (`// Made with: ...`). The module is
 * committed, so the line names no folder of the machine that made it: `--out` is written
 * relative to the folder the command ran in when the file lies inside it, else as the file's
 * name alone; always with `/`, so the same command gives the same file on every system.
 */
import path from "node:path";

/**
 * @example
 * madeWith(["reduck/mail.google.com/send_email"], { out: "/home/ann/app/src/reduck.ts" }, "/home/ann/app");
 * // "reduck scripts types reduck/mail.google.com/send_email --out src/reduck.ts"
 */
export function madeWith(addresses: string[], { version, out, strict }: { version?: string; out?: string; strict?: boolean }, cwd = process.cwd()): string {
  const words = ["reduck scripts types", ...addresses];
  if (version) words.push(`--version ${version}`);
  if (out) words.push(`--out ${portableOut(out, cwd)}`);
  if (strict) words.push("--strict");
  return words.join(" ");
}

function portableOut(out: string, cwd: string): string {
  const relative = path.relative(cwd, path.resolve(cwd, out));
  const inside = relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
  return (inside ? relative : path.basename(out)).split(path.sep).join("/");
}
