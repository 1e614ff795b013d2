/**
 * The one rule for files named by `relativePath`, shared by the library, the CLI, the
 * agent tool and the reference server: a plain relative name inside the reduck folder
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

function reason(name: unknown): string | undefined {
  if (typeof name !== "string" || name.trim() === "") return "the name is empty";
  if (name.includes("\0")) return "it contains a NUL byte";
  // Backslashes are separators on Windows and escapes elsewhere: either way, not a plain name.
  if (name.includes("\\")) return "it contains a backslash; use / between folders";
  if (name.startsWith("/")) return "it is an absolute path";
  if (/^[A-Za-z]:/.test(name)) return "it starts with a drive letter";
  if (name.startsWith("~")) return "it starts with ~; name the file relative to the folder";
  const segments = name.split("/");
  if (segments.some((s) => s === "..")) return "it leaves the folder with ..";
  if (segments.some((s) => s === "")) return "it has an empty path segment";
  if (segments.some((s) => s === ".")) return "it has a . segment";
  if (/[\u0000-\u001f]/.test(name)) return "it contains a control character";
  return undefined;
}

/** True when `name` is a plain name inside the folder. */
export function isPlainRelativePath(name: unknown): name is string {
  return reason(name) === undefined;
}
