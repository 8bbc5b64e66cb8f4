import ipaddr from "ipaddr.js";

/**
 * The address a client is counted by: an IPv4 address as it is (also when it arrives IPv4-mapped, ::ffff:a.b.c.d), an
 * IPv6 address by its /64 — one home or phone line gets a whole /64 and can pick any address in it, so counting single
 * IPv6 addresses would give a guesser 2^64 fresh starts (issue 23, finding 4).
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(":")}::/64`;
}
