#!/usr/bin/env node
// `reduck-sandbox`: the sandbox's command. Its sources are TypeScript, run through tsx's loader in
// this very process (so Ctrl-C and SIGTERM reach the sandbox itself). `--help` lists the options.
import { register } from "tsx/esm/api";

register();
await import("../server/sandbox.ts");
