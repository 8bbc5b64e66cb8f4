import { hash, verify } from "@node-rs/argon2";
import { commonPasswords } from "./common-passwords.ts";

/** The memory one hash takes (KiB): @node-rs/argon2 maps a block of exactly this size for it (the soak tells it apart). */
export const PASSWORD_HASH_MEMORY_KIB = 19456;

// argon2id with OWASP ASVS 5 minimums (m=19456 KiB, t=2, p=1). Algorithm 2 = argon2id.
const options = { algorithm: 2, memoryCost: PASSWORD_HASH_MEMORY_KIB, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash of a random password, verified against when the RUT is unknown so both paths take similar time. */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(`decoy-${Math.random()}`);
  return decoyHash;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords.has(password.toLowerCase());
}
