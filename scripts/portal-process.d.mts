export const portalProcessEnv: Record<string, string>;
export const portalNodeArgs: string[];
