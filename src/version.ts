import { createRequire } from "node:module";

/** Written into every build by tsup (`define`); absent when the sources run as they are (tests). */
declare const __REDUCK_PACKAGE__: { name: string; version: string } | undefined;

// Built in, because reading package.json through the package's own exports map cost 2 ms of
// every CLI start (measured). Unbuilt, the self-reference works from src/.
const pkg =
  typeof __REDUCK_PACKAGE__ !== "undefined"
    ? __REDUCK_PACKAGE__
    : (createRequire(import.meta.url)("reduck-client/package.json") as { name: string; version: string });

export const PACKAGE_NAME = pkg.name;
export const PACKAGE_VERSION = pkg.version;
export const USER_AGENT = `${pkg.name}/${pkg.version} node/${process.versions.node}`;
