import type { BuildOptions } from "esbuild";

export const serverEntries: Record<string, string>;
export const compileOptions: BuildOptions;
export function buildServer(outdir?: string): Promise<{ files: string[]; packages: string[] }>;
