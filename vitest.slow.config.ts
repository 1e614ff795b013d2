// `npm run test:slow`: the test files named *.slow.test.ts (see vitest.config.ts).
import { defineConfig } from "vitest/config";
import { suite } from "./vitest.config.js";

export default defineConfig(suite("slow"));
