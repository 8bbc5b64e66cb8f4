import { describe, expect, it } from "vitest";
import { clientKey } from "./client-address.ts";

describe("the address a client is counted by", () => {
  it("keeps an IPv4 address, also when it arrives IPv4-mapped", () => {
    expect(clientKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts every IPv6 address of one /64 as one client, and different /64s apart", () => {
    const a = clientKey("2001:db8:1234:5678::1");
    expect(clientKey("2001:0db8:1234:5678:ffff:eeee:dddd:cccc")).toBe(a);
    expect(a).toBe("2001:db8:1234:5678::/64");
    expect(clientKey("2001:db8:1234:5679::1")).not.toBe(a);
  });

  it("leaves anything that is not an address as it is", () => {
    expect(clientKey("desconocida")).toBe("desconocida");
  });
});
