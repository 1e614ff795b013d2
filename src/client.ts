/**
 * The client lives in core/ (core's calls need its type and internals, and core imports nothing
 * above it); this is the address the rest of src/ and the package entry have always used.
 */
export * from "./core/client.js";
