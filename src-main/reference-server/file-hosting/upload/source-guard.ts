import {
  lookup as dnsLookup,
  type LookupAddress,
  type LookupAllOptions,
  type LookupOneOptions,
} from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { buildConnector } from 'undici';

/**
 * `--refuse-private-sources`: an upload by URL may not reach this machine or its network. Checked on
 * the address each connection is made to, after DNS, so every redirect hop and a name that resolves
 * to a private address are refused alike, and a name cannot resolve to one address for the check and
 * another for the connection (the connection uses the address checked).
 */

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

/** Whether an IP address is loopback, link-local, private or otherwise not a public host's. */
export function isPrivateAddress(address: string): boolean {
  const ip = address.startsWith('[') ? address.slice(1, -1) : address;
  const kind = isIP(ip);
  if (kind === 4) return PRIVATE.check(ip, 'ipv4');
  if (kind !== 6) return true;
  const embedded = embeddedIpv4(ip);
  if (embedded) return PRIVATE.check(embedded, 'ipv4');
  return PRIVATE.check(ip, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), -compatible or NAT64 (64:ff9b::) IPv6 one. */
function embeddedIpv4(ip: string): string | null {
  const lower = ip.toLowerCase();
  const m = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (m) return m[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const hi = Number.parseInt(hex[1]!, 16);
  const lo = Number.parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** What a connection to a refused address fails with: the route answers its own sentence for it. */
export class RefusedSource extends Error {
  readonly code = 'SOURCE-PRIVATE';
  constructor(readonly host: string) {
    super(`${host} is a loopback, link-local or private address`);
  }
}

/**
 * An undici connector that refuses every connection to an address `refuse` says no to: an IP given in
 * the URL is checked as it is, a name through the DNS lookup the connection itself uses.
 */
export function guardedConnector(
  refuse: (address: string) => boolean,
  options: buildConnector.BuildOptions,
): buildConnector.connector {
  type LookupCallback = (
    err: NodeJS.ErrnoException | null,
    address: string | LookupAddress[],
    family?: number,
  ) => void;
  const lookup = (hostname: string, opts: LookupOneOptions | LookupAllOptions, callback: LookupCallback) => {
    dnsLookup(hostname, { ...opts, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      if (addresses.length === 0 || addresses.some((a) => refuse(a.address)))
        return callback(new RefusedSource(hostname), '');
      if ((opts as LookupAllOptions).all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  const connect = buildConnector({ ...options, lookup } as buildConnector.BuildOptions);
  return (opts, callback) => {
    const host = opts.hostname.startsWith('[') ? opts.hostname.slice(1, -1) : opts.hostname;
    if (isIP(host) && refuse(host)) return callback(new RefusedSource(host), null);
    connect(opts, callback);
  };
}
