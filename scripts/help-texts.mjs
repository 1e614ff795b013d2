// Every help text `reduck <words> --help` prints, as oclif writes it when stdout is not a
// terminal and nothing changes it (scripts/manifest.mjs runs this with such an environment):
// bin/run.js prints these without starting oclif in that case. Made by the CLI itself, through
// its own main(), for the root, every topic and every command of oclif.manifest.json; printed as
// one JSON object from the words joined by `:` ("" for the root) to the text.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const cli = process.argv[2];
const { main } = createRequire(import.meta.url)(cli);
const manifest = JSON.parse(readFileSync("oclif.manifest.json", "utf8"));
const pjson = JSON.parse(readFileSync("package.json", "utf8"));

const ids = new Set([""]);
for (const command of Object.values(manifest.commands)) {
  for (const id of [command.id, ...(command.aliases ?? [])]) {
    const words = id.split(":");
    for (let i = 1; i <= words.length; i++) ids.add(words.slice(0, i).join(":"));
  }
}
for (const topic of Object.keys(pjson.oclif.topics ?? {})) ids.add(topic);

// oclif's flush() waits for stdout's "drain" once per main(): many mains, one process.
process.stdout.setMaxListeners(0);
const write = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
const texts = {};
for (const id of [...ids].sort()) {
  let out = "";
  let err = "";
  process.stdout.write = (chunk) => ((out += chunk), true);
  process.stderr.write = (chunk) => ((err += chunk), true);
  try {
    await main([...(id ? id.split(":") : []), "--help"]);
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
    process.removeAllListeners("SIGINT");
  }
  // Only what oclif answers with help alone (exit 0, nothing on stderr) is kept; and no text that
  // names this machine's Node (the root's VERSION line), as the user's may be another.
  const namesNode = out.includes(`node-${process.version}`);
  if (!err && !process.exitCode && !namesNode) texts[id] = out;
  else if (!namesNode) write.err(`help-texts: \`reduck ${id.split(":").join(" ")} --help\` left to oclif (${err.trim() || `exit ${process.exitCode}`})\n`);
  process.exitCode = undefined;
}
write.out(JSON.stringify(texts));
