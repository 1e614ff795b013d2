/**
 * ajv with its formats, as validate-args.ts uses them: built into a file of their own
 * (dist/cli/ajv-vendor.cjs) that only a run loads.
 */
import * as ajvModule from "ajv/dist/2020.js";
import * as formatsModule from "ajv-formats";

type AjvClass = typeof ajvModule.Ajv2020;
type FormatsPlugin = (ajv: InstanceType<AjvClass>) => unknown;

// Both are CommonJS. Bundled, a CommonJS module is only its default export; run unbundled
// (tests), Node also lends its named exports; and ajv-formats' default may itself carry one.
const ajvExports = ajvModule as unknown as { Ajv2020?: AjvClass; default: AjvClass | { Ajv2020: AjvClass } };
const formatsExports = formatsModule as unknown as { default: FormatsPlugin | { default: FormatsPlugin } };

export const Ajv2020: AjvClass = ajvExports.Ajv2020 ?? ("Ajv2020" in ajvExports.default ? ajvExports.default.Ajv2020 : ajvExports.default);
export const addFormats: FormatsPlugin = typeof formatsExports.default === "function" ? formatsExports.default : formatsExports.default.default;
