/** Loads `file` (default `.env`) into process.env when it exists, without overriding variables already set. */
export function loadEnvFile(file?: string): boolean;
