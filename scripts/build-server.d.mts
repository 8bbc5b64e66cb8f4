export const serverEntries: Record<string, string>;
export function buildServer(outdir?: string): Promise<{ files: string[]; packages: string[] }>;
