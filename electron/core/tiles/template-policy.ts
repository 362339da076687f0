// Where a tile-server template may point. Tile numbers go in the path or the query only: in the host
// or port, {x} would make Sitewalk probe a range of names or local ports (a 502 or 504 per tile tells
// which answer). Link-local addresses (169.254.0.0/16, fe80::/10: cloud metadata services, printers
// and cameras without a DHCP server) and this computer's own network addresses are refused; loopback
// and private addresses stay allowed, for crews run their own tile servers there. Checked when a
// template is saved (its name resolved, when it resolves) and again before every request, for
// templates saved before these rules.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

const TILE_NUMBERS = /\{-?[xyz]\}/;

/** The text between "://" and the path: user info, host and port, placeholders as written. */
function authorityOf(template: string): string {
  const afterScheme = template.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const end = afterScheme.search(/[/?#]/);
  return end === -1 ? afterScheme : afterScheme.slice(0, end);
}

/** Why the tile numbers are misplaced, or null. */
export function placeholderPlacementIssue(template: string): string | null {
  if (TILE_NUMBERS.test(authorityOf(template.trim()))) {
    return 'The tile numbers {z}, {x} and {y} belong in the path or query of the tile server address, never in its server name or port.';
  }
  return null;
}

function ipv4Parts(address: string): number[] | null {
  const parts = address.split('.').map(Number);
  return parts.length === 4 && parts.every((part) => Number.isInteger(part) && part >= 0 && part <= 255) ? parts : null;
}

/** 169.254.0.0/16, fe80::/10, and an IPv4-mapped IPv6 address of the former. */
export function isLinkLocal(address: string): boolean {
  const plain = address.replace(/^\[|\]$/g, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  // The URL parser writes a mapped address in hex: [::ffff:a9fe:101] for 169.254.1.1.
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(plain);
  const fromHex = mappedHex ? [Number.parseInt(mappedHex[1]!, 16), Number.parseInt(mappedHex[2]!, 16)] : null;
  const v4 = fromHex ? [fromHex[0]! >> 8, fromHex[0]! & 0xff, fromHex[1]! >> 8, fromHex[1]! & 0xff] : ipv4Parts(mapped ? mapped[1]! : plain);
  if (v4) return v4[0] === 169 && v4[1] === 254;
  return isIP(plain) === 6 && /^fe[89ab][0-9a-f]:/.test(plain);
}

/** This computer's own addresses on its networks (loopback excluded: a local tile server is fine). */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) if (!entry.internal) own.add(entry.address.toLowerCase().replace(/%.*$/, ''));
  }
  return own;
}

function addressIssue(address: string, shown: string): string | null {
  if (isLinkLocal(address)) {
    return `The tile server address points to ${shown}, a link-local address (169.254.x.x or fe80::), where cloud metadata services and unconfigured devices answer; Sitewalk does not fetch tiles there.`;
  }
  if (ownAddresses().has(address.replace(/^\[|\]$/g, '').toLowerCase().replace(/%.*$/, ''))) {
    return `The tile server address points to ${shown}, this computer's own network address; use 127.0.0.1 (or localhost) for a tile server on this computer.`;
  }
  return null;
}

/** The host of a template's URL (placeholders filled with harmless values), or null. */
function hostOf(template: string): string | null {
  try {
    return new URL(template.trim().replace(/\{s\}/g, 'a').replace(/\{-?[xyz]\}|\{r\}/g, '0')).hostname;
  } catch {
    return null;
  }
}

/** The checks that need no network: placement, and a host written as a refused address. */
export function templateAddressIssue(template: string): string | null {
  const placement = placeholderPlacementIssue(template);
  if (placement) return placement;
  const host = hostOf(template);
  if (host === null) return null;
  const literal = host.replace(/^\[|\]$/g, '');
  return isIP(literal) ? addressIssue(literal, host) : null;
}

/** The same, with the host name resolved: a name that leads to a refused address is refused too. */
export async function resolvedTemplateIssue(template: string): Promise<string | null> {
  const direct = templateAddressIssue(template);
  if (direct) return direct;
  const host = hostOf(template);
  if (host === null || isIP(host.replace(/^\[|\]$/g, ''))) return null;
  // A name that does not resolve now (offline in the field) is not refused for that.
  const addresses = await lookup(host, { all: true }).catch(() => []);
  for (const { address } of addresses) {
    const issue = addressIssue(address, `${host} (${address})`);
    if (issue) return issue;
  }
  return null;
}
