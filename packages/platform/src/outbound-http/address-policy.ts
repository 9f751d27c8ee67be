import net from 'node:net';

// Targets a server-side fetch must never reach unless explicitly allowed: loopback, private,
// carrier-grade NAT, link-local (which holds cloud metadata at 169.254.169.254), multicast and
// reserved ranges, in both address families.
const blockedV4: Array<[string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const blockedV6: Array<[string, number]> = [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
  // Addresses that carry an IPv4 address inside (IPv4-compatible, 6to4, Teredo), which a relay on
  // the way may deliver to that IPv4 address, private or not: none is a target a user needs.
  ['::', 96],
  ['2002::', 16],
  ['2001::', 32],
];

const blocked = new net.BlockList();
for (const [address, prefix] of blockedV4) blocked.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of blockedV6) blocked.addSubnet(address, prefix, 'ipv6');

/** `::ffff:10.0.0.1` is the IPv4 address 10.0.0.1 in disguise. */
function unmapIpv4(address: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match ? match[1] : address;
}

export interface AddressPolicy {
  /** The host may be reached whatever it resolves to, over plain http too. */
  hostAllowed(hostname: string): boolean;
  /** The resolved address may be connected to. */
  addressAllowed(address: string): boolean;
}

/**
 * `allowlist` entries are host names (exact, case-insensitive), IP addresses or CIDR blocks
 * (`127.0.0.0/8`, `::1`). Everything public is allowed; everything in the blocked ranges is
 * refused unless an entry covers it.
 */
export function createAddressPolicy(allowlist: readonly string[]): AddressPolicy {
  const allowedHosts = new Set<string>();
  const allowedAddresses = new net.BlockList();
  for (const raw of allowlist) {
    const entry = raw.trim().toLowerCase().replace(/^\[|\]$/g, '');
    if (!entry) continue;
    const [address, prefixText] = entry.split('/');
    const family = net.isIP(address);
    if (family === 0) {
      allowedHosts.add(entry);
      continue;
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const prefix = prefixText === undefined ? (family === 4 ? 32 : 128) : Number(prefixText);
    allowedAddresses.addSubnet(address, prefix, type);
  }
  const isAllowedAddress = (address: string) => {
    const plain = unmapIpv4(address);
    const type = net.isIP(plain) === 4 ? 'ipv4' : 'ipv6';
    return allowedAddresses.check(plain, type);
  };
  return {
    hostAllowed(hostname) {
      const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
      return allowedHosts.has(host) || (net.isIP(host) !== 0 && isAllowedAddress(host));
    },
    addressAllowed(address) {
      const plain = unmapIpv4(address);
      const family = net.isIP(plain);
      if (family === 0) return false;
      if (isAllowedAddress(plain)) return true;
      return !blocked.check(plain, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}
