import { createRequire } from "node:module";

// src/ and dist/ both sit one level below package.json.
const pkg = createRequire(import.meta.url)("../package.json") as { name: string; version: string };

export const PACKAGE_NAME = pkg.name;
export const PACKAGE_VERSION = pkg.version;
export const USER_AGENT = `${pkg.name}/${pkg.version} node/${process.versions.node}`;
