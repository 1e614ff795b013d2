/**
 * The service's size limits. "50 MB" and "100 KB" are read in binary units, as the usual
 * Node body limits count them (`100kb` = 102,400 bytes). Sizes shown to people use the same
 * binary units (core/bytes.ts).
 */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;
export const MAX_JSON_BODY_BYTES = 100 * 1024;
