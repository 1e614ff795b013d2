/** "Did you mean ...?" lives in core/ (the library's batch runner names typos too); kept here for the CLI's imports. */
export * from "../core/suggest.js";
