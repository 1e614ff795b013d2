import { createRequire } from "node:module";

// Self-reference through the package's own exports map: works from src/ and from any
// file under dist/.
const pkg = createRequire(import.meta.url)("reduck-client/package.json") as { name: string; version: string };

export const PACKAGE_NAME = pkg.name;
export const PACKAGE_VERSION = pkg.version;
export const USER_AGENT = `${pkg.name}/${pkg.version} node/${process.versions.node}`;
