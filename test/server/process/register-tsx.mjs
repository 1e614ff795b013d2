// Registers tsx's loader, so that Node itself can load the package's TypeScript. The plain-Node
// entries (entry.mjs, internal.mjs) import it: a module runs once, so the loader is registered
// once however many of them a program loads.
import { register } from "tsx/esm/api";

register();
