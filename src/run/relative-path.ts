/**
 * The one rule for files named by `relativePath`, shared by the library, the CLI and the agent
 * tool (the sandbox applies the same rule, written on its own): a plain relative name inside the
 * reduck folder
 * (`<desktop>/reduck`), sub-folders allowed.
 */

export const SERVICE_FOLDER = "reduck";
export const RELATIVE_PATH_MESSAGE = `must be a plain name inside the ${SERVICE_FOLDER} folder`;

/**
 * Returns why `name` is refused, or `undefined` when it is a plain name inside the folder.
 *
 * @example
 * ```ts
 * relativePathProblem("2026/invoice.pdf"); // undefined
 * relativePathProblem("../secrets.txt");   // "must be a plain name inside the reduck folder (it leaves the folder with ..)"
 * ```
 */
export function relativePathProblem(name: unknown): string | undefined {
  const why = reason(name);
  return why ? `${RELATIVE_PATH_MESSAGE} (${why})` : undefined;
}

/** Names Windows keeps for devices, in any case, with or without an extension (`con.txt`). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[1-9]|lpt[1-9]) *(\..*)?$/i;

function reason(name: unknown): string | undefined {
  if (typeof name !== "string" || name.trim() === "") return "the name is empty";
  if (name.includes("\0")) return "it contains a NUL byte";
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return "it contains a control character";
  // Backslashes are separators on Windows and escapes elsewhere: either way, not a plain name.
  if (name.includes("\\")) return "it contains a backslash; use / between folders";
  if (name.startsWith("/")) return "it is an absolute path";
  if (/^[A-Za-z]:/.test(name)) return "it starts with a drive letter";
  if (name.startsWith("~")) return "it starts with ~; name the file relative to the folder";
  // The browser reads named files through a file: URL, where these are not plain characters.
  if (name.includes("%")) return "it contains %, which a file URL reads as an escape (%2e%2e is ..)";
  if (name.includes("?") || name.includes("#")) return "it contains ? or #, which end the path of a file URL";
  if (name.includes(":")) return "it contains :, which Windows reads as a drive or a stream name";
  const segments = name.split("/");
  if (segments.some((s) => s === "..")) return "it leaves the folder with ..";
  if (segments.some((s) => s === "")) return "it has an empty path segment";
  if (segments.some((s) => s === ".")) return "it has a . segment";
  const device = segments.find((s) => WINDOWS_DEVICE.test(s));
  if (device) return `${JSON.stringify(device)} is a device name on Windows (CON, PRN, AUX, NUL, COM1-9, LPT1-9)`;
  const trailing = segments.find((s) => s.endsWith(".") || s.endsWith(" "));
  if (trailing) return `${JSON.stringify(trailing)} ends in a dot or a space, which Windows drops (it would name another file)`;
  return undefined;
}

/** True when `name` is a plain name inside the folder. */
export function isPlainRelativePath(name: unknown): name is string {
  return reason(name) === undefined;
}
