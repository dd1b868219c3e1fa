import { isIPv6 } from 'node:net';

/**
 * The client a per-address limit counts (docs/product/accounts.md#rate-limits): an IPv4 address (also when
 * written as IPv6), or an IPv6 address's /64, the network one subscriber is given, from which any one machine
 * can take as many addresses as it likes.
 */
export function clientOf(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const address = ip.split('%')[0]!;
  if (!isIPv6(address)) return ip;
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const [head, tail] = address.split('::');
  // A dotted quad at the end stands for two groups.
  const width = (part: string[]) => part.reduce((n, group) => n + (group.includes('.') ? 2 : 1), 0);
  const full =
    tail === undefined
      ? groups(head)
      : [...groups(head), ...Array<string>(8 - width(groups(head)) - width(groups(tail))).fill('0'), ...groups(tail)];
  return `${full
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
