import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { DestinationPolicy } from '../config.js';

/** Addresses that are not public: loopback, private, shared, link-local (cloud metadata), multicast, reserved. */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 3],
] as const) NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  // IPv4-mapped addresses are judged as IPv4 (`unmapped`); NAT64 ones reach an IPv4 address too.
  ['::', 127], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('0.0.0.0', 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addAddress('::', 'ipv6');

const familyOf = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');
/** An IPv4 address written as IPv6 (`::ffff:10.0.0.1`) is judged as the IPv4 one. */
const unmapped = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');

export function isPublicAddress(address: string): boolean {
  const a = unmapped(address);
  return !NOT_PUBLIC.check(a, familyOf(a));
}

/** What the sandbox listens on: a webhook to it would make the sandbox call its own API. */
export interface SelfAddress {
  port: number;
  /** The host of the public URL, as clients reach the sandbox. */
  publicHost: string;
  publicPort: number;
}

/** Names that always resolve to loopback (RFC 6761). */
const isLocalName = (host: string) => host === 'localhost' || host.endsWith('.localhost');
const defaultPort = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').toLowerCase();

/** The one message of a refused destination: it never says what answers there. */
export const REFUSED = 'the destination is not allowed by this sandbox (SANDBOX_WEBHOOK_DESTINATIONS)';
export const SELF = "the destination is this sandbox's own address";

/**
 * Checks webhook destinations against the policy: when a webhook is saved (`refusal`) and on every
 * connection (`lookup`, given to the request: the address checked is the one connected to, so a
 * name that resolves elsewhere later is caught too).
 */
export class DestinationGuard {
  constructor(
    readonly policy: DestinationPolicy,
    private readonly self: () => SelfAddress | undefined,
  ) {}

  /** Why a webhook may not have this URL, or undefined; what can be told before any connection. */
  refusal(text: string): string | undefined {
    const url = new URL(text);
    const host = hostOf(url);
    const port = defaultPort(url);
    const self = this.self();
    if (self && host === self.publicHost.toLowerCase() && port === self.publicPort) return SELF;
    if ((isIP(host) || isLocalName(host)) && this.isSelf(isLocalName(host) ? '127.0.0.1' : host, port)) return SELF;
    if (this.policy.kind === 'allow' && !this.allowed(host, port)) return REFUSED;
    if (this.policy.kind === 'public' && (isLocalName(host) || (isIP(host) && !isPublicAddress(host)))) return REFUSED;
    return undefined;
  }

  /** A `lookup` for a request to `url`: resolves as usual, then refuses an address the policy does not allow. */
  lookupFor(url: URL): LookupFunction {
    const port = defaultPort(url);
    return (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
        if (err) return callback(err, '', 0);
        const allowed = addresses.filter((a) => !this.isSelf(a.address, port) && (this.policy.kind !== 'public' || isPublicAddress(a.address)));
        const first = allowed[0];
        if (!first) return callback(new DestinationRefused(addresses.some((a) => this.isSelf(a.address, port)) ? SELF : REFUSED), '', 0);
        if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
        callback(null, first.address, first.family);
      });
    };
  }

  private allowed(host: string, port: number): boolean {
    const policy = this.policy as { kind: 'allow'; hosts: string[] };
    return policy.hosts.some((entry) => {
      const m = /^(.*?)(?::(\d+))?$/.exec(entry.replace(/^\[(.*)\](:\d+)?$/, '$1$2')) as RegExpExecArray;
      const [, name = '', wantedPort] = m;
      if (wantedPort !== undefined && Number(wantedPort) !== port) return false;
      return name.startsWith('*.') ? host.endsWith(name.slice(1)) : host === name;
    });
  }

  private isSelf(address: string, port: number): boolean {
    const self = this.self();
    if (!self || port !== self.port) return false;
    const a = unmapped(address);
    if (LOOPBACK.check(a, familyOf(a))) return true;
    return Object.values(networkInterfaces()).some((list) => list?.some((i) => i.address === a));
  }
}

/** A connection the guard refused: recorded with the guard's message only. */
export class DestinationRefused extends Error {
  override readonly name = 'DestinationRefused';
}
