/** Defines URL, URLSearchParams, atob, btoa, TextEncoder and TextDecoder on the realm it is evaluated in (see web-globals.mjs). */
export declare function webGlobals(): void;
