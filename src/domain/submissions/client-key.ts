import { createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';

/** IPv4 whole, IPv6 its /64 (120 §5 step 3): one household or host is one key. */
export function addressPrefix(address: string): string {
  const plain = address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
  if (!isIPv6(plain)) return plain;
  const [head, tail = ''] = plain.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = plain.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((group) => parseInt(group || '0', 16).toString(16)).join(':')}::/64`;
}

/** HMAC-SHA256 with the submission key, hex: addresses and e-mails are never stored as given. */
export function keyedHash(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}
