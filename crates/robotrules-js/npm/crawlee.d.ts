import type { Profile } from './index.js';

export interface FailClosedOptions {
  /** The crawler's product token or full User-Agent header (default: Crawlee's `respectRobotsTxtFile.userAgent`, else `*`). */
  userAgent?: string;
  /** The reading (default `'google'`). */
  profile?: Profile;
  /** The robots.txt fetch's timeout; past it, the origin is unreachable (default 10,000). */
  timeoutMillis?: number;
  /** How long a fetched robots.txt is kept (default 24 hours, RFC 9309 §2.4). */
  ttlMillis?: number;
  /** How long an unreachable origin stays disallowed before robots.txt is fetched again (default 60,000). */
  unreachableTtlMillis?: number;
  /** How HTTP 429 is read: `'unreachable'` (disallow all, the default, as the Rust client) or `'unavailable'` (allow all, RFC 9309 §2.3.1.3's letter). */
  tooManyRequests?: 'unreachable' | 'unavailable';
  /** The fetch function (default `globalThis.fetch`). */
  fetch?: typeof globalThis.fetch;
}

export interface RobotsEntry {
  robotsTxtUrl: string;
  /** `available` (2xx), `unavailable` (4xx but 429: allow all) or `unreachable` (5xx, 429 by default, network error, timeout: disallow all), as `statusAccess` reads the status. */
  access: 'available' | 'unavailable' | 'unreachable';
  status: number | null;
  reason: string;
}

export class RobotsCache {
  constructor(options?: FailClosedOptions);
  entry(url: string): Promise<RobotsEntry>;
  isAllowed(url: string): Promise<boolean>;
  crawlDelay(url: string): Promise<number | null>;
  waitForTurn(url: string): Promise<void>;
  clear(): void;
}

/** Makes a Crawlee crawler read robots.txt fail closed (RFC 9309 §2.3.1.4); returns its cache. */
export function failClosed(crawler: object, options?: FailClosedOptions): RobotsCache;
