export const portalNodeFlags: string[];
