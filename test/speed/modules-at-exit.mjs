// Loaded with `node --import`: at exit, writes the Node built-in modules the process loaded
// (process.moduleLoadList) and the files it required (require's cache: the CLI's bundle, its
// vendor files) to the file named by REDUCK_TEST_MODULES_FILE, one a line.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const required = createRequire(import.meta.url).cache;
process.on("exit", () => writeFileSync(process.env.REDUCK_TEST_MODULES_FILE, [...process.moduleLoadList, ...Object.keys(required)].join("\n")));
