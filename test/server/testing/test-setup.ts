/// <reference types="node" preserve="true" />
// Every test file ends by closing the sandbox browser its stores shared, if one was started, and by
// removing its stores' temporary folders (testing.ts's endOfTestFile): a setup file of this
// package's vitest.config.ts. The root's suite calls endOfTestFile from its own setup file.
import { afterAll } from "vitest";
import { endOfTestFile } from "./testing.js";

afterAll(endOfTestFile);
