/**
 * Where a webhook may be sent (docs/events-and-webhooks.md "Webhooks"). A subscription's URL is a request our service makes
 * on a client's say-so, so it must never reach into our own network (SSRF): in AWS only `https`, and no
 * host that is, or resolves to, a private, loopback, link-local (the instance metadata service), shared,
 * multicast or reserved address. The check runs when a subscription is created or changed, and again
 * at every send on the very address the connection uses (shared/webhooks/sender.ts), so a name that
 * later resolves elsewhere (DNS rebinding) is refused too.
 *
 * The local stack (WEBHOOKS_ALLOW_LOOPBACK) also accepts `http` and `https` to localhost and to every
 * loopback address, 127.0.0.0/8 and ::1 (also written IPv4-mapped, ::ffff:127.x.y.z), and `https` to a name
 * that resolves to one, so that a developer's receiver on their own machine gets webhooks; nothing else.
 * The whole of 127.0.0.0/8, not 127.0.0.1 alone: every address of it is this machine (RFC 1122), a receiver
 * may listen on another one, and the connect-time check of a resolved name knows the same block, so one
 * loopback rule holds for an address written in the URL and one a name resolves to.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { MAX_WEBHOOK_URL_LENGTH } from '../domain/webhook';
import { InvalidInput } from '../errors';

/** Address ranges a webhook never reaches (IANA special-purpose registries, IPv4 and IPv6). */
const forbidden = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local: the instance metadata service 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated): an IPv4 address in disguise
  ['::ffff:0:0:0', 96], // IPv4-translated
  ['64:ff9b::', 96], // NAT64: an IPv4 address in disguise
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, …)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: an IPv4 address in disguise
  ['fec0::', 10], // site-local (deprecated)
  ['fc00::', 7], // unique local (AWS's IPv6 metadata address fd00:ec2::254 is one)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv6');
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.']);

export interface UrlPolicy {
  /** The local stack: loopback receivers allowed, over http too. */
  allowLoopback: boolean;
}

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** May a webhook connect to this IP address? (IPv4-mapped IPv6 addresses are checked as the IPv4 they carry.) */
export function isAllowedAddress(address: string, policy: UrlPolicy): boolean {
  const type = family(address);
  if (policy.allowLoopback && loopback.check(address, type)) return true;
  return !forbidden.check(address, type);
}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The checks that need no network: length, scheme, no credentials or fragment, no forbidden IP literal.
 * Answers the normalised URL (WHATWG parsing: `http://2130706433/` is `http://127.0.0.1/`).
 */
export function checkWebhookUrl(raw: string, policy: UrlPolicy): URL {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) throw new InvalidInput(`url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidInput('url must be an absolute URL (https://…)');
  }
  // The stored URL is the normalised one (percent-encoded), which may be longer than what was sent.
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH) throw new InvalidInput(`url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters once percent-encoded`);
  const host = hostOf(url);
  const isLoopbackHost = LOOPBACK_NAMES.has(host.toLowerCase()) || (isIP(host) !== 0 && loopback.check(host, family(host)));
  const localReceiver = policy.allowLoopback && isLoopbackHost;
  if (url.protocol !== 'https:' && !(localReceiver && url.protocol === 'http:')) {
    throw new InvalidInput(policy.allowLoopback ? 'url must use https (http only to localhost or a loopback address: 127.0.0.0/8, ::1)' : 'url must use https');
  }
  if (url.username || url.password) throw new InvalidInput('url must not contain a user name or password');
  if (url.hash) throw new InvalidInput('url must not contain a fragment (#…)');
  if (isLoopbackHost && !localReceiver) throw new InvalidInput('url must not point to a loopback address');
  if (isIP(host) !== 0 && !isAllowedAddress(host, policy)) {
    throw new InvalidInput('url must not point to a private, loopback, link-local or reserved address');
  }
  return url;
}

export type Resolver = (hostname: string) => Promise<string[]>;

const RESOLVE_TIMEOUT_MS = 3000;

/** Every address of a name (the system resolver, as the connection will use), or an error after 3 s. */
export const resolveAll: Resolver = async (hostname) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`resolving ${hostname} timed out`)), RESOLVE_TIMEOUT_MS).unref();
  });
  try {
    const entries = await Promise.race([lookup(hostname, { all: true, verbatim: true }), timeout]);
    return entries.map((entry) => entry.address);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * The whole check for a new or changed subscription: the URL's own rules, then every address its host
 * resolves to. A host that does not resolve (yet) is accepted: every send checks again.
 */
export async function assertWebhookUrl(raw: string, policy: UrlPolicy, resolve: Resolver = resolveAll): Promise<string> {
  const url = checkWebhookUrl(raw, policy);
  const host = hostOf(url);
  if (isIP(host) === 0 && !(policy.allowLoopback && LOOPBACK_NAMES.has(host.toLowerCase()))) {
    const addresses = await resolve(host).catch(() => []);
    if (addresses.some((address) => !isAllowedAddress(address, policy))) {
      throw new InvalidInput('url must not point to a host that resolves to a private, loopback, link-local or reserved address');
    }
  }
  return url.href;
}
